//! Injected faults: the seeded fault plan on REST (429 as Discord sends it,
//! enforced per-bucket limits, 5xx before and after the work, slow answers, connection
//! resets, DM refusals), its control API, and the gateway faults with RESUME (a raw
//! WebSocket client, and serenity's own client resuming).

use std::time::{Duration, Instant};

use fake_discord::gateway::GatewaySessionInfo;
use fake_discord::testing::{json_or_null, with_json};
use fake_discord::{
    EnforcedRateLimits, FAKE_TOKEN, FakeDiscord, FaultPlan, FaultRule, GatewayFault,
    PeriodicGatewayFault, RestFault, SimUser,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

const WAIT: Duration = Duration::from_secs(5);

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .timeout(WAIT)
        .build()
        .unwrap()
}

/// Status, headers and JSON body of a bot request, or the transport error.
async fn call(
    fake: &FakeDiscord,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Result<(u16, reqwest::header::HeaderMap, Value), reqwest::Error> {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let request = client()
        .request(method, format!("{}/api/v10{path}", fake.url()))
        .header("Authorization", format!("Bot {FAKE_TOKEN}"));
    let response = with_json(request, body).send().await?;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().await?;
    Ok((status, headers, json_or_null(&bytes)))
}

async fn post_message(fake: &FakeDiscord, channel: u64, content: &str) -> u16 {
    let path = format!("/channels/{channel}/messages");
    call(fake, "POST", &path, Some(json!({ "content": content })))
        .await
        .unwrap()
        .0
}

fn header<'a>(headers: &'a reqwest::header::HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn rule(path: &str, probability: f64, fault: RestFault) -> FaultRule {
    FaultRule {
        method: None,
        path: path.into(),
        probability,
        fault,
    }
}

fn plan(seed: u64, rules: Vec<FaultRule>) -> FaultPlan {
    FaultPlan {
        seed,
        rules,
        ..FaultPlan::default()
    }
}

// ---- REST ------------------------------------------------------------------------------------

#[tokio::test]
async fn a_route_429_looks_like_discords_and_does_nothing() {
    let fake = FakeDiscord::start().await.unwrap();
    let channel = fake.text_channel_id();
    let limited = RestFault::RateLimit {
        retry_after: 1.25,
        global: false,
    };
    fake.set_fault_plan(plan(1, vec![rule("/channels/*/messages", 1.0, limited)]))
        .unwrap();
    let path = format!("/channels/{channel}/messages");
    let (status, headers, body) = call(&fake, "POST", &path, Some(json!({"content": "hi"})))
        .await
        .unwrap();
    assert_eq!(status, 429);
    assert_eq!(
        body,
        json!({"message": "You are being rate limited.", "retry_after": 1.25, "global": false})
    );
    assert_eq!(header(&headers, "retry-after"), Some("2"));
    assert_eq!(header(&headers, "x-ratelimit-remaining"), Some("0"));
    assert_eq!(header(&headers, "x-ratelimit-reset-after"), Some("1.250"));
    assert_eq!(header(&headers, "x-ratelimit-scope"), Some("user"));
    assert_eq!(header(&headers, "x-ratelimit-global"), None);
    assert_eq!(
        header(&headers, "x-ratelimit-bucket").map(str::len),
        Some(16)
    );
    assert!(fake.messages_in(channel).is_empty(), "a 429 does nothing");
    // Other routes are not matched by the rule.
    let (status, _, _) = call(&fake, "GET", &format!("/channels/{channel}"), None)
        .await
        .unwrap();
    assert_eq!(status, 200);
    let injected = fake.injected_faults();
    assert_eq!(injected.len(), 1);
    assert_eq!(
        (
            injected[0].method.as_str(),
            injected[0].path.as_str(),
            injected[0].fault.as_str()
        ),
        ("POST", path.as_str(), "rate_limit")
    );
}

#[tokio::test]
async fn a_global_429_says_so_in_body_and_headers() {
    let fake = FakeDiscord::start().await.unwrap();
    let global = RestFault::RateLimit {
        retry_after: 0.5,
        global: true,
    };
    fake.set_fault_plan(plan(1, vec![rule("/", 1.0, global)]))
        .unwrap();
    let (status, headers, body) = call(&fake, "GET", "/users/@me", None).await.unwrap();
    assert_eq!(status, 429);
    assert_eq!(body["global"], json!(true));
    assert_eq!(body["retry_after"], json!(0.5));
    assert_eq!(header(&headers, "x-ratelimit-global"), Some("true"));
    assert_eq!(header(&headers, "x-ratelimit-scope"), Some("global"));
    assert_eq!(header(&headers, "retry-after"), Some("1"));
}

/// Discord's global limit is on by default: of 60 requests sent at once, 50 are done and
/// 10 get the global 429 (body and headers as Discord sends them); the interaction
/// endpoints are not counted. Switched off, the route's own limit still refuses 10 of 60
/// sent at once on one route; with both off, nothing is refused.
#[tokio::test]
async fn the_global_limit_refuses_the_51st_request_of_a_second_by_default() {
    let fake = FakeDiscord::start().await.unwrap();
    let burst = || {
        futures_util::future::join_all(
            (0..60).map(|_| async { call(&fake, "GET", "/users/@me", None).await.unwrap() }),
        )
    };
    let answers = burst().await;
    let refused: Vec<&(u16, reqwest::header::HeaderMap, Value)> = answers
        .iter()
        .filter(|(status, _, _)| *status == 429)
        .collect();
    assert_eq!((answers.len() - refused.len(), refused.len()), (50, 10));
    let (_, headers, body) = refused[0];
    assert_eq!(body["global"], json!(true));
    assert_eq!(body["message"], json!("You are being rate limited."));
    let retry_after = body["retry_after"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&retry_after), "{retry_after}");
    assert_eq!(header(headers, "x-ratelimit-global"), Some("true"));
    assert_eq!(header(headers, "x-ratelimit-scope"), Some("global"));
    // An interaction's callback is not bound by it (here: an unknown interaction, 404).
    let (status, _, _) = call(
        &fake,
        "POST",
        "/interactions/1/token/callback",
        Some(json!({"type": 1})),
    )
    .await
    .unwrap();
    assert_ne!(status, 429);
    // Without the global limit, the route's own limit (50 a second per route and resource)
    // still refuses the 51st request of a window, as the route's 429.
    fake.set_global_rate_limit(false);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let answers = burst().await;
    let refused: Vec<_> = answers
        .iter()
        .filter(|(status, _, _)| *status == 429)
        .collect();
    assert_eq!((answers.len() - refused.len(), refused.len()), (50, 10));
    let (_, headers, body) = refused[0];
    assert_eq!(body["global"], json!(false));
    assert_eq!(header(headers, "x-ratelimit-scope"), Some("user"));
    assert_eq!(header(headers, "x-ratelimit-remaining"), Some("0"));
    fake.set_route_rate_limit(false);
    let answers = burst().await;
    assert!(answers.iter().all(|(status, _, _)| *status == 200));
}

#[tokio::test]
async fn enforced_limits_answer_429_past_the_limit_until_the_window_ends() {
    let fake = FakeDiscord::start().await.unwrap();
    let channel = fake.text_channel_id();
    fake.set_fault_plan(FaultPlan {
        rate_limits: Some(EnforcedRateLimits {
            limit: 2,
            window_ms: 400,
        }),
        ..FaultPlan::default()
    })
    .unwrap();
    let path = format!("/channels/{channel}/messages");
    let body = || Some(json!({"content": "hi"}));
    let (first, h1, _) = call(&fake, "POST", &path, body()).await.unwrap();
    let (second, h2, _) = call(&fake, "POST", &path, body()).await.unwrap();
    let (third, h3, limited) = call(&fake, "POST", &path, body()).await.unwrap();
    assert_eq!((first, second, third), (200, 200, 429));
    assert_eq!(header(&h1, "x-ratelimit-limit"), Some("2"));
    assert_eq!(header(&h1, "x-ratelimit-remaining"), Some("1"));
    assert_eq!(header(&h2, "x-ratelimit-remaining"), Some("0"));
    assert_eq!(header(&h3, "x-ratelimit-scope"), Some("user"));
    let retry_after = limited["retry_after"].as_f64().unwrap();
    assert!((0.0..=0.4).contains(&retry_after), "{retry_after}");
    assert_eq!(fake.messages_in(channel).len(), 2);
    // Another top-level resource has its own count.
    let dm = fake.dm_channel_for(1001);
    assert_eq!(post_message(&fake, dm, "hi").await, 200);
    tokio::time::sleep(Duration::from_secs_f64(retry_after + 0.05)).await;
    assert_eq!(post_message(&fake, channel, "again").await, 200);
}

#[tokio::test]
async fn a_5xx_before_the_work_does_nothing_and_after_it_loses_the_answer() {
    let fake = FakeDiscord::start().await.unwrap();
    let channel = fake.text_channel_id();
    let before = RestFault::Status {
        status: 503,
        after: false,
    };
    fake.set_fault_plan(plan(1, vec![rule("/channels", 1.0, before)]))
        .unwrap();
    let path = format!("/channels/{channel}/messages");
    let (status, _, body) = call(&fake, "POST", &path, Some(json!({"content": "a"})))
        .await
        .unwrap();
    assert_eq!(status, 503);
    assert_eq!(body["message"], "503: Service Unavailable");
    assert!(fake.messages_in(channel).is_empty());

    let after = RestFault::Status {
        status: 502,
        after: true,
    };
    fake.set_fault_plan(plan(1, vec![rule("/channels", 1.0, after)]))
        .unwrap();
    assert_eq!(post_message(&fake, channel, "b").await, 502);
    let stored = fake.messages_in(channel);
    assert_eq!(stored.len(), 1, "the work was done");
    assert_eq!(stored[0].json["content"], "b");
    assert_eq!(fake.requests().last().unwrap().status, 502);
}

#[tokio::test]
async fn a_slow_answer_comes_late_and_then_does_the_work() {
    let fake = FakeDiscord::start().await.unwrap();
    let channel = fake.text_channel_id();
    let slow = RestFault::Slow { seconds: 0.3 };
    fake.set_fault_plan(plan(1, vec![rule("/channels/*/messages", 1.0, slow)]))
        .unwrap();
    let started = Instant::now();
    assert_eq!(post_message(&fake, channel, "late").await, 200);
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(fake.messages_in(channel).len(), 1);
}

#[tokio::test]
async fn a_reset_drops_the_connection_without_an_answer() {
    let fake = FakeDiscord::start().await.unwrap();
    let channel = fake.text_channel_id();
    let path = format!("/channels/{channel}/messages");
    for after in [false, true] {
        let reset = RestFault::Reset { after };
        fake.set_fault_plan(plan(1, vec![rule("/channels/*/messages", 1.0, reset)]))
            .unwrap();
        let error = call(&fake, "POST", &path, Some(json!({"content": "x"})))
            .await
            .expect_err("no answer at all");
        assert!(error.status().is_none(), "{error:?}");
        assert!(
            !error.is_timeout(),
            "reset at once, not a timeout: {error:?}"
        );
        assert_eq!(fake.requests().last().unwrap().status, 0);
        assert_eq!(fake.messages_in(channel).len(), usize::from(after));
    }
    // The fake still serves new connections.
    fake.clear_fault_plan();
    assert_eq!(post_message(&fake, channel, "y").await, 200);
}

/// Statuses of `count` requests to `/channels/{channel}` under a 50% 503 plan, with a request
/// to another route between each when `interleave`.
async fn statuses(seed: u64, count: usize, interleave: bool) -> Vec<u16> {
    let fake = FakeDiscord::start().await.unwrap();
    let channel = fake.text_channel_id();
    let flaky = RestFault::Status {
        status: 503,
        after: false,
    };
    fake.set_fault_plan(plan(seed, vec![rule("/", 0.5, flaky)]))
        .unwrap();
    // Up to 80 requests in a burst: past the global limit, whose 429s are not this test's.
    fake.set_global_rate_limit(false);
    let mut out = Vec::new();
    for _ in 0..count {
        if interleave {
            call(&fake, "GET", "/users/@me", None).await.unwrap();
        }
        let (status, _, _) = call(&fake, "GET", &format!("/channels/{channel}"), None)
            .await
            .unwrap();
        out.push(status);
    }
    out
}

#[tokio::test]
async fn draws_are_deterministic_per_seed_and_route() {
    let first = statuses(42, 40, false).await;
    let interleaved = statuses(42, 40, true).await;
    assert_eq!(
        first, interleaved,
        "other routes do not shift a route's draws"
    );
    let failed = first.iter().filter(|s| **s == 503).count();
    assert!((8..=32).contains(&failed), "about half fail: {failed}");
    assert!(first.iter().all(|s| matches!(s, 200 | 503)));
    assert_ne!(
        first,
        statuses(43, 40, false).await,
        "another seed, other draws"
    );
}

#[tokio::test]
async fn rules_share_one_draw_in_order() {
    let fake = FakeDiscord::start().await.unwrap();
    let status = |status| RestFault::Status {
        status,
        after: false,
    };
    fake.set_fault_plan(plan(
        5,
        vec![
            rule("/users", 0.5, status(500)),
            rule("/", 0.5, status(502)),
        ],
    ))
    .unwrap();
    let mut seen = Vec::new();
    for _ in 0..30 {
        seen.push(call(&fake, "GET", "/users/@me", None).await.unwrap().0);
    }
    assert!(seen.iter().all(|s| matches!(s, 500 | 502)), "{seen:?}");
    assert!(seen.contains(&500) && seen.contains(&502), "{seen:?}");
}

#[tokio::test]
async fn dms_are_refused_at_random_with_50007() {
    let fake = FakeDiscord::start().await.unwrap();
    let dm = fake.dm_channel_for(1001);
    fake.set_fault_plan(FaultPlan {
        seed: 9,
        dm_refusal: 0.5,
        ..FaultPlan::default()
    })
    .unwrap();
    let path = format!("/channels/{dm}/messages");
    let mut refused = 0;
    for n in 0..30 {
        let (status, _, body) = call(
            &fake,
            "POST",
            &path,
            Some(json!({"content": n.to_string()})),
        )
        .await
        .unwrap();
        match status {
            403 => {
                assert_eq!(body["code"], 50007);
                assert_eq!(body["message"], "Cannot send messages to this user");
                refused += 1;
            }
            200 => {}
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert!((5..=25).contains(&refused), "{refused}");
    assert_eq!(fake.messages_in(dm).len(), 30 - refused);
    // Guild channels are never refused.
    assert_eq!(post_message(&fake, fake.text_channel_id(), "hi").await, 200);
    let logged = fake
        .injected_faults()
        .iter()
        .filter(|f| f.fault == "dm_refusal")
        .count();
    assert_eq!(logged, refused);
}

#[tokio::test]
async fn a_plan_switched_off_injects_nothing_until_switched_on() {
    let fake = FakeDiscord::start().await.unwrap();
    let down = RestFault::Status {
        status: 500,
        after: false,
    };
    assert!(!fake.set_faults_enabled(false), "no plan to switch yet");
    fake.set_fault_plan(plan(1, vec![rule("/", 1.0, down)]))
        .unwrap();
    assert_eq!(call(&fake, "GET", "/users/@me", None).await.unwrap().0, 500);
    assert!(fake.set_faults_enabled(false));
    assert_eq!(call(&fake, "GET", "/users/@me", None).await.unwrap().0, 200);
    assert!(fake.set_faults_enabled(true));
    assert_eq!(call(&fake, "GET", "/users/@me", None).await.unwrap().0, 500);
    fake.clear_fault_plan();
    assert_eq!(call(&fake, "GET", "/users/@me", None).await.unwrap().0, 200);
}

#[test]
fn bad_plans_are_refused_with_the_field() {
    let cases = [
        (
            rule("/", 1.5, RestFault::Reset { after: false }),
            "probability",
        ),
        (
            rule("users", 0.5, RestFault::Reset { after: false }),
            "path",
        ),
        (
            rule(
                "/",
                0.5,
                RestFault::Status {
                    status: 404,
                    after: false,
                },
            ),
            "status",
        ),
        (
            rule("/", 0.5, RestFault::Slow { seconds: 600.0 }),
            "seconds",
        ),
        (
            rule(
                "/",
                0.5,
                RestFault::RateLimit {
                    retry_after: -1.0,
                    global: false,
                },
            ),
            "retry_after",
        ),
    ];
    for (bad, field) in cases {
        let error = plan(0, vec![bad]).validate().unwrap_err();
        assert!(
            error.to_string().contains(field),
            "{error} should name {field}"
        );
    }
    let every = FaultPlan {
        gateway_every: Some(PeriodicGatewayFault {
            interactions: 0,
            fault: GatewayFault::Reconnect,
        }),
        ..FaultPlan::default()
    };
    assert!(every.validate().is_err());
}

#[tokio::test]
async fn the_control_api_sets_switches_reports_and_clears_the_plan() {
    let fake = FakeDiscord::start().await.unwrap();
    let control = |method: &str, path: &str, body: Option<Value>| {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let request = client().request(method, format!("{}/_control{path}", fake.url()));
        async move {
            let response = with_json(request, body).send().await.unwrap();
            let status = response.status().as_u16();
            (status, json_or_null(&response.bytes().await.unwrap()))
        }
    };
    let (status, _) = control("POST", "/faults/enabled", Some(json!({"enabled": true}))).await;
    assert_eq!(status, 404, "no plan yet");
    let plan = json!({"seed": 3, "rules": [
        {"method": "get", "path": "/users/@me", "probability": 1.0,
         "fault": {"kind": "status", "status": 503}}]});
    let (status, answer) = control("PUT", "/faults", Some(plan)).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["plan"]["seed"], 3);
    assert_eq!(answer["plan"]["enabled"], true);
    assert_eq!(call(&fake, "GET", "/users/@me", None).await.unwrap().0, 503);
    let (_, report) = control("GET", "/faults", None).await;
    assert_eq!(
        report["injected"],
        json!([{"method": "GET", "path": "/users/@me", "fault": "status 503"}])
    );
    let (status, _) = control("POST", "/faults/enabled", Some(json!({"enabled": false}))).await;
    assert_eq!(status, 200);
    assert_eq!(call(&fake, "GET", "/users/@me", None).await.unwrap().0, 200);
    // Refused plans keep the old one and say why.
    let (status, error) = control(
        "PUT",
        "/faults",
        Some(json!({"rules": [{"probability": 2, "fault": {"kind": "reset"}}]})),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        error["error"].as_str().unwrap().contains("probability"),
        "{error}"
    );
    let (status, error) = control("PUT", "/faults", Some(json!({"sede": 1}))).await;
    assert_eq!(status, 400, "{error}");
    assert_eq!(fake.fault_plan().unwrap().seed, 3);
    let (status, cleared) = control("DELETE", "/faults", None).await;
    assert_eq!((status, cleared["plan"].clone()), (200, Value::Null));
    // Gateway: no connection to fault yet; the heartbeat setting and the counts.
    let (status, sent) = control(
        "POST",
        "/gateway/faults",
        Some(json!({"kind": "reconnect"})),
    )
    .await;
    assert_eq!((status, sent), (200, json!({"connections": 0})));
    let (status, _) = control(
        "POST",
        "/gateway/faults",
        Some(json!({"kind": "close", "code": 1000})),
    )
    .await;
    assert_eq!(status, 400, "only 4xxx close codes");
    let (status, _) = control(
        "POST",
        "/gateway/heartbeat",
        Some(json!({"interval_ms": 250})),
    )
    .await;
    assert_eq!(status, 200);
    let (_, gateway) = control("GET", "/gateway", None).await;
    assert_eq!(
        gateway,
        json!({"identifies": 0, "resumes": 0, "sessions": []})
    );
}

// ---- the gateway, with a raw WebSocket client ------------------------------------------------

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(fake: &FakeDiscord) -> (Ws, Value) {
    let url = format!("{}?v=10&encoding=json", fake.gateway_url());
    let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .unwrap();
    let hello = next(&mut ws).await;
    assert_eq!(hello["op"], 10);
    (ws, hello)
}

/// The next JSON frame; `Value::Null` for a Close frame, with its code in `"close"`.
async fn next(ws: &mut Ws) -> Value {
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a frame in time");
        match frame {
            Some(Ok(Message::Text(text))) => return serde_json::from_str(&text).unwrap(),
            Some(Ok(Message::Close(frame))) => {
                return json!({ "close": frame.map(|f| u16::from(f.code)) });
            }
            Some(Ok(_)) => {}
            None | Some(Err(_)) => return json!({ "close": null }),
        }
    }
}

async fn send(ws: &mut Ws, payload: Value) {
    ws.send(Message::Text(payload.to_string())).await.unwrap();
}

/// Connects and IDENTIFYs: the socket, the session id and the last seq (GUILD_CREATE's).
async fn identify(fake: &FakeDiscord) -> (Ws, String, u64) {
    let (mut ws, _) = connect(fake).await;
    let identify = json!({"op": 2, "d": {"token": FAKE_TOKEN, "intents": 0,
        "properties": {"os": "linux", "browser": "test", "device": "test"}}});
    send(&mut ws, identify).await;
    let ready = next(&mut ws).await;
    assert_eq!(ready["t"], "READY");
    let guild = next(&mut ws).await;
    assert_eq!(guild["t"], "GUILD_CREATE");
    let session = ready["d"]["session_id"].as_str().unwrap().to_string();
    (ws, session, guild["s"].as_u64().unwrap())
}

async fn resume(fake: &FakeDiscord, session: &str, seq: u64) -> Ws {
    let (mut ws, _) = connect(fake).await;
    let resume = json!({"op": 6, "d": {"token": FAKE_TOKEN, "session_id": session, "seq": seq}});
    send(&mut ws, resume).await;
    ws
}

async fn wait_disconnected(fake: &FakeDiscord) {
    let deadline = Instant::now() + WAIT;
    while fake.gateway_sessions().iter().any(|s| s.connected) {
        assert!(Instant::now() < deadline, "the session stays connected");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn after_a_resumable_close_resume_replays_what_was_missed_then_resumed() {
    let fake = FakeDiscord::start().await.unwrap();
    let (mut ws, session, seq) = identify(&fake).await;
    assert_eq!(fake.gateway_fault(GatewayFault::Close { code: 4000 }), 1);
    assert_eq!(next(&mut ws).await, json!({"close": 4000}));
    wait_disconnected(&fake).await;
    assert_eq!(
        fake.gateway_sessions(),
        vec![GatewaySessionInfo {
            session_id: session.clone(),
            seq,
            connected: false
        }]
    );
    // Sent while the bot is away: kept for the session.
    let alice = SimUser::new(1001, "alice");
    let sent = fake
        .slash_command(&alice, fake.text_channel_id(), "ping", vec![])
        .unwrap();
    assert_eq!(fake.dispatch_raw("TYPING_START", json!({})), 1);

    let mut ws = resume(&fake, &session, seq).await;
    let first = next(&mut ws).await;
    assert_eq!(
        (first["t"].as_str(), first["s"].as_u64()),
        (Some("INTERACTION_CREATE"), Some(seq + 1))
    );
    assert_eq!(first["d"]["id"], sent.id.to_string());
    let second = next(&mut ws).await;
    assert_eq!(
        (second["t"].as_str(), second["s"].as_u64()),
        (Some("TYPING_START"), Some(seq + 2))
    );
    let resumed = next(&mut ws).await;
    assert_eq!(
        (resumed["t"].as_str(), resumed["s"].as_u64()),
        (Some("RESUMED"), Some(seq + 3))
    );
    assert_eq!(fake.gateway_counts(), (1, 1));
    // Live again: the next dispatch comes at once with the next seq.
    fake.dispatch_raw("TYPING_START", json!({}));
    assert_eq!(next(&mut ws).await["s"], seq + 4);
}

#[tokio::test]
async fn a_dropped_connection_and_op_7_reconnect_both_resume() {
    let fake = FakeDiscord::start().await.unwrap();
    let (mut ws, session, seq) = identify(&fake).await;
    fake.gateway_fault(GatewayFault::Reconnect);
    assert_eq!(next(&mut ws).await["op"], 7);
    drop(ws);
    wait_disconnected(&fake).await;
    let mut ws = resume(&fake, &session, seq).await;
    assert_eq!(next(&mut ws).await["t"], "RESUMED");

    fake.gateway_fault(GatewayFault::Drop);
    assert_eq!(next(&mut ws).await["close"], Value::Null, "no close frame");
    wait_disconnected(&fake).await;
    let mut ws = resume(&fake, &session, seq + 1).await;
    assert_eq!(next(&mut ws).await["t"], "RESUMED");
    assert_eq!(fake.gateway_counts(), (1, 2));
}

#[tokio::test]
async fn sessions_that_cannot_resume_get_op_9_false_and_identify_works() {
    let fake = FakeDiscord::start().await.unwrap();
    // A non-resumable close code ends the session.
    let (mut ws, session, seq) = identify(&fake).await;
    fake.gateway_fault(GatewayFault::Close { code: 4004 });
    assert_eq!(next(&mut ws).await, json!({"close": 4004}));
    let mut ws = resume(&fake, &session, seq).await;
    assert_eq!(
        next(&mut ws).await,
        json!({"op": 9, "d": false, "s": null, "t": null})
    );

    // Op 9 resumable: the same session resumes.
    let (mut ws, session, seq) = identify(&fake).await;
    fake.gateway_fault(GatewayFault::InvalidSession { resumable: true });
    assert_eq!(next(&mut ws).await["d"], true);
    drop(ws);
    let mut ws = resume(&fake, &session, seq).await;
    assert_eq!(next(&mut ws).await["t"], "RESUMED");

    // Op 9 not resumable: the session is over; interactions find no bot.
    fake.gateway_fault(GatewayFault::InvalidSession { resumable: false });
    assert_eq!(
        next(&mut ws).await,
        json!({"op": 9, "d": false, "s": null, "t": null})
    );
    drop(ws);
    let alice = SimUser::new(1001, "alice");
    assert!(
        fake.slash_command(&alice, fake.text_channel_id(), "ping", vec![])
            .is_err()
    );
    let mut ws = resume(&fake, &session, seq + 1).await;
    assert_eq!(next(&mut ws).await["d"], false);

    // A seq the session never reached, or an unknown session: op 9 false.
    let (_ws, session, seq) = identify(&fake).await;
    let mut ws = resume(&fake, &session, seq + 10).await;
    assert_eq!(next(&mut ws).await["d"], false);
    let mut ws = resume(&fake, "no-such-session", 0).await;
    assert_eq!(next(&mut ws).await["d"], false);
    assert_eq!(fake.gateway_counts(), (3, 1));
}

#[tokio::test]
async fn closing_with_1000_ends_the_session() {
    let fake = FakeDiscord::start().await.unwrap();
    let (mut ws, session, seq) = identify(&fake).await;
    ws.close(Some(tokio_tungstenite::tungstenite::protocol::CloseFrame {
        code: CloseCode::Normal,
        reason: "bye".into(),
    }))
    .await
    .unwrap();
    let deadline = Instant::now() + WAIT;
    while !fake.gateway_sessions().is_empty() {
        assert!(Instant::now() < deadline, "the session should end");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let mut ws = resume(&fake, &session, seq).await;
    assert_eq!(next(&mut ws).await["d"], false);
}

#[tokio::test]
async fn skipped_heartbeat_acks_and_the_heartbeat_interval() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.set_heartbeat_interval(Duration::from_millis(250));
    let (mut ws, _, _) = identify(&fake).await;
    let (_other, hello) = connect(&fake).await;
    assert_eq!(hello["d"]["heartbeat_interval"], 250);
    fake.gateway_fault(GatewayFault::SkipHeartbeatAcks { count: 1 });
    // Let the fault reach the connection before the heartbeat.
    tokio::time::sleep(Duration::from_millis(50)).await;
    send(&mut ws, json!({"op": 1, "d": 2})).await;
    let silent = tokio::time::timeout(Duration::from_millis(300), ws.next()).await;
    assert!(
        silent.is_err(),
        "no ACK for the skipped heartbeat: {silent:?}"
    );
    send(&mut ws, json!({"op": 1, "d": 2})).await;
    assert_eq!(next(&mut ws).await["op"], 11);
}

#[tokio::test]
async fn a_periodic_gateway_fault_follows_every_nth_interaction() {
    let fake = FakeDiscord::start().await.unwrap();
    let (mut ws, _, _) = identify(&fake).await;
    fake.set_fault_plan(FaultPlan {
        gateway_every: Some(PeriodicGatewayFault {
            interactions: 2,
            fault: GatewayFault::Reconnect,
        }),
        ..FaultPlan::default()
    })
    .unwrap();
    let alice = SimUser::new(1001, "alice");
    for _ in 0..2 {
        fake.slash_command(&alice, fake.text_channel_id(), "ping", vec![])
            .unwrap();
    }
    assert_eq!(next(&mut ws).await["t"], "INTERACTION_CREATE");
    assert_eq!(next(&mut ws).await["t"], "INTERACTION_CREATE");
    assert_eq!(next(&mut ws).await["op"], 7, "after the 2nd interaction");
    assert_eq!(fake.injected_faults().last().unwrap().fault, "reconnect");
}

// ---- the gateway, with serenity's client ------------------------------------------------------

struct Pong;

#[serenity::async_trait]
impl serenity::all::EventHandler for Pong {
    async fn interaction_create(
        &self,
        ctx: serenity::all::Context,
        interaction: serenity::all::Interaction,
    ) {
        if let serenity::all::Interaction::Command(command) = interaction {
            let reply = serenity::all::CreateInteractionResponse::Message(
                serenity::all::CreateInteractionResponseMessage::new().content("pong"),
            );
            let _ = command.create_response(&ctx.http, reply).await;
        }
    }
}

#[tokio::test]
async fn serenity_resumes_and_answers_interactions_sent_while_it_was_away() {
    let fake = FakeDiscord::start().await.unwrap();
    let mut client = fake
        .client_builder(serenity::all::GatewayIntents::non_privileged())
        .event_handler(Pong)
        .await
        .unwrap();
    let shards = client.shard_manager.clone();
    tokio::spawn(async move { client.start().await });
    fake.wait_until_ready(WAIT).await.unwrap();
    let alice = SimUser::new(1001, "alice");
    let channel = fake.text_channel_id();
    for fault in [
        GatewayFault::Close { code: 4000 },
        GatewayFault::Drop,
        GatewayFault::Reconnect,
        GatewayFault::InvalidSession { resumable: true },
    ] {
        assert_eq!(fake.gateway_fault(fault.clone()), 1, "{fault:?}");
        // Sent at once: the bot is (or soon is) away and gets it on resume.
        let sent = fake.slash_command(&alice, channel, "ping", vec![]).unwrap();
        let answer = fake
            .next_interaction_response(sent.id, WAIT)
            .await
            .unwrap_or_else(|e| panic!("{fault:?}: {e}"));
        assert_eq!(answer.content(), Some("pong"));
    }
    let (identifies, resumes) = fake.gateway_counts();
    assert_eq!((identifies, resumes), (1, 4), "every fault was resumed");
    shards.shutdown_all().await;
}

#[tokio::test]
async fn serenity_reidentifies_after_op_9_false() {
    let fake = FakeDiscord::start().await.unwrap();
    let mut client = fake
        .client_builder(serenity::all::GatewayIntents::non_privileged())
        .event_handler(Pong)
        .await
        .unwrap();
    let shards = client.shard_manager.clone();
    tokio::spawn(async move { client.start().await });
    fake.wait_until_ready(WAIT).await.unwrap();
    let alice = SimUser::new(1001, "alice");
    let channel = fake.text_channel_id();
    let ping = || async {
        let deadline = Instant::now() + Duration::from_secs(15);
        // Until the bot has a session again (a re-IDENTIFY takes a moment).
        let sent = loop {
            match fake.slash_command(&alice, channel, "ping", vec![]) {
                Ok(sent) => break sent,
                Err(_) if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(e) => panic!("{e}"),
            }
        };
        let answer = fake
            .next_interaction_response(sent.id, Duration::from_secs(15))
            .await
            .unwrap();
        assert_eq!(answer.content(), Some("pong"));
    };

    // (A missed HEARTBEAT_ACK also makes serenity 0.12 restart the shard with a new
    // IDENTIFY rather than RESUME: ShardRunner::run, `do_heartbeat` false ->
    // `request_restart`. Each restart waits out serenity's 5 s between shard boots, so this
    // test checks one.)
    fake.gateway_fault(GatewayFault::InvalidSession { resumable: false });
    let deadline = Instant::now() + Duration::from_secs(10);
    while fake.gateway_counts().0 < 2 {
        assert!(
            Instant::now() < deadline,
            "serenity should IDENTIFY after op 9 false"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    ping().await;
    assert_eq!(fake.gateway_counts(), (2, 0));
    shards.shutdown_all().await;
}
