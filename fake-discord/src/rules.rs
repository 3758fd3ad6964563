//! Discord's limits on request bodies, checked before the fake accepts a message, an
//! interaction response or a thread. A violated limit is answered as Discord does: HTTP 400
//! with JSON error code 50035 Invalid Form Body and the path of each offending field in
//! `errors` (<https://discord.com/developers/docs/reference#error-messages>):
//!
//! ```json
//! {"code": 50035, "message": "Invalid Form Body",
//!  "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
//!                                      "message": "Must be 2000 or fewer in length."}]}}}
//! ```
//!
//! Lengths are counted in characters (Unicode scalar values), as Discord's docs state them.

use serde_json::{Map, Value, json};

/// Message content: "Message contents (up to 2000 characters)"
/// (<https://discord.com/developers/docs/resources/message#create-message-jsonform-params>).
pub(crate) const MAX_CONTENT: usize = 2000;
/// "Up to 10 `rich` embeds (up to 6000 characters)" (same table).
pub(crate) const MAX_EMBEDS: usize = 10;
/// The embed limits (<https://discord.com/developers/docs/resources/message#embed-object-embed-limits>).
pub(crate) const MAX_EMBED_TITLE: usize = 256;
pub(crate) const MAX_EMBED_DESCRIPTION: usize = 4096;
pub(crate) const MAX_EMBED_FIELDS: usize = 25;
pub(crate) const MAX_EMBED_FIELD_NAME: usize = 256;
pub(crate) const MAX_EMBED_FIELD_VALUE: usize = 1024;
pub(crate) const MAX_EMBED_FOOTER: usize = 2048;
pub(crate) const MAX_EMBED_AUTHOR: usize = 256;
pub(crate) const MAX_EMBED_TOTAL: usize = 6000;
/// "Legacy messages allow up to 5 action rows as top-level components"
/// (<https://discord.com/developers/docs/components/reference>, legacy message limits).
pub(crate) const MAX_ACTION_ROWS: usize = 5;
/// "An Action Row can contain up to 5 Buttons"
/// (<https://discord.com/developers/docs/components/reference#action-row>).
pub(crate) const MAX_BUTTONS_PER_ROW: usize = 5;
/// "custom_id ... 1-100 characters" (<https://discord.com/developers/docs/components/reference#anatomy-of-a-component-custom-id>).
pub(crate) const MAX_CUSTOM_ID: usize = 100;
/// Button "label: Text that appears on the button; max 80 characters"
/// (<https://discord.com/developers/docs/components/reference#button-button-structure>).
pub(crate) const MAX_BUTTON_LABEL: usize = 80;
/// String select: "options ... max 25", "placeholder ... max 150 characters"; select
/// option "label"/"value"/"description": "max 100 characters"
/// (<https://discord.com/developers/docs/components/reference#string-select>).
pub(crate) const MAX_SELECT_OPTIONS: usize = 25;
pub(crate) const MAX_SELECT_PLACEHOLDER: usize = 150;
pub(crate) const MAX_SELECT_OPTION_TEXT: usize = 100;
/// Autocomplete: "choices (max of 25 choices)"
/// (<https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-autocomplete>);
/// a choice's name "1-100 character choice name", its value "up to 100 characters if string"
/// (<https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-option-choice-structure>).
pub(crate) const MAX_CHOICES: usize = 25;
pub(crate) const MAX_CHOICE_TEXT: usize = 100;
/// Thread names: "1-100 character channel name"
/// (<https://discord.com/developers/docs/resources/channel#start-thread-without-message-json-params>).
pub(crate) const MAX_CHANNEL_NAME: usize = 100;
/// "auto_archive_duration ... can be set to: 60, 1440, 4320, 10080" (same table).
pub(crate) const AUTO_ARCHIVE_DURATIONS: [u64; 4] = [60, 1440, 4320, 10080];
/// "Maximum number of attachments in a message reached (10)", JSON error code 30015
/// (<https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes>).
pub(crate) const MAX_ATTACHMENTS: usize = 10;

/// A modal (interaction callback type 9): "custom_id ... max 100 characters", "title ...
/// max 45 characters", "Between 1 and 5 (inclusive) components that make up the modal"
/// (<https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal>).
pub(crate) const MAX_MODAL_TITLE: usize = 45;
pub(crate) const MAX_MODAL_COMPONENTS: usize = 5;
/// A text input: "label ... max 45 characters", "min_length ... min 0, max 4000",
/// "max_length ... min 1, max 4000", "value ... max 4000 characters", "placeholder ... max
/// 100 characters" (<https://discord.com/developers/docs/components/reference#text-input>).
pub(crate) const MAX_TEXT_INPUT_LABEL: usize = 45;
pub(crate) const MAX_TEXT_INPUT_LENGTH: u64 = 4000;
pub(crate) const MAX_TEXT_INPUT_PLACEHOLDER: usize = 100;

/// Form errors collected while checking a body: each with its field path.
#[derive(Debug, Default)]
pub(crate) struct FormErrors {
    errors: Vec<(Vec<String>, &'static str, String)>,
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

impl FormErrors {
    pub(crate) fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    pub(crate) fn push(&mut self, path: &[String], code: &'static str, message: String) {
        self.errors.push((path.to_vec(), code, message));
    }

    /// `value` has at most `max` characters (BASE_TYPE_MAX_LENGTH).
    fn max_len(&mut self, path: &[String], value: &Value, max: usize) {
        if let Some(text) = value.as_str()
            && chars(text) > max
        {
            self.push(
                path,
                "BASE_TYPE_MAX_LENGTH",
                format!("Must be {max} or fewer in length."),
            );
        }
    }

    /// `value` has between `min` and `max` characters (BASE_TYPE_BAD_LENGTH).
    fn bad_len(&mut self, path: &[String], value: &Value, min: usize, max: usize) {
        if let Some(text) = value.as_str() {
            let n = chars(text);
            if n < min || n > max {
                self.push(
                    path,
                    "BASE_TYPE_BAD_LENGTH",
                    format!("Must be between {min} and {max} in length."),
                );
            }
        }
    }

    /// An array of at most `max` items (BASE_TYPE_MAX_LENGTH).
    fn max_items(&mut self, path: &[String], value: &Value, max: usize) {
        if let Some(list) = value.as_array()
            && list.len() > max
        {
            self.push(
                path,
                "BASE_TYPE_MAX_LENGTH",
                format!("Must be {max} or fewer in length."),
            );
        }
    }

    /// The `errors` object: paths nested as objects, array indices as keys.
    pub(crate) fn to_json(&self) -> Value {
        let mut root = Value::Object(Map::new());
        for (path, code, message) in &self.errors {
            let mut node = &mut root;
            for key in path {
                node = node
                    .as_object_mut()
                    .expect("error nodes are objects")
                    .entry(key.clone())
                    .or_insert_with(|| Value::Object(Map::new()));
            }
            let list = node
                .as_object_mut()
                .expect("error nodes are objects")
                .entry("_errors")
                .or_insert_with(|| json!([]));
            if let Some(list) = list.as_array_mut() {
                list.push(json!({ "code": code, "message": message }));
            }
        }
        root
    }

    /// The 400 / 50035 answer, or `None` when nothing was wrong.
    pub(crate) fn reply(&self) -> Option<(u16, Option<Value>)> {
        (!self.is_empty()).then(|| {
            (
                400,
                Some(json!({
                    "code": 50035,
                    "message": "Invalid Form Body",
                    "errors": self.to_json(),
                })),
            )
        })
    }
}

fn at(path: &[String], key: impl ToString) -> Vec<String> {
    let mut out = path.to_vec();
    out.push(key.to_string());
    out
}

/// Checks a message body (Create/Edit Message, interaction response data, followups, a forum
/// thread's `message`) against Discord's limits; `path` prefixes the field paths (`["data"]`
/// for an interaction callback).
pub(crate) fn check_message(body: &Value, path: &[String], errors: &mut FormErrors) {
    errors.max_len(&at(path, "content"), &body["content"], MAX_CONTENT);
    check_embeds(&body["embeds"], &at(path, "embeds"), errors);
    check_components(&body["components"], &at(path, "components"), errors);
}

/// Embed limits (<https://discord.com/developers/docs/resources/message#embed-object-embed-limits>):
/// "Leading and trailing whitespace characters are not included (they are trimmed
/// automatically)"; the 6000-character total is across all embeds of the message.
fn check_embeds(embeds: &Value, path: &[String], errors: &mut FormErrors) {
    let Some(list) = embeds.as_array() else {
        return;
    };
    errors.max_items(path, embeds, MAX_EMBEDS);
    let trimmed = |v: &Value| v.as_str().map_or(0, |s| chars(s.trim()));
    let mut total = 0;
    for (i, embed) in list.iter().enumerate() {
        let here = at(path, i);
        let mut len = |errors: &mut FormErrors, key: &[&str], max: usize| {
            let value = key.iter().fold(embed, |v, k| &v[*k]);
            let n = trimmed(value);
            total += n;
            if n > max {
                let field = key.iter().fold(here.clone(), |p, k| at(&p, k));
                errors.push(
                    &field,
                    "BASE_TYPE_MAX_LENGTH",
                    format!("Must be {max} or fewer in length."),
                );
            }
        };
        len(errors, &["title"], MAX_EMBED_TITLE);
        len(errors, &["description"], MAX_EMBED_DESCRIPTION);
        len(errors, &["footer", "text"], MAX_EMBED_FOOTER);
        len(errors, &["author", "name"], MAX_EMBED_AUTHOR);
        if let Some(fields) = embed["fields"].as_array() {
            errors.max_items(&at(&here, "fields"), &embed["fields"], MAX_EMBED_FIELDS);
            for (j, field) in fields.iter().enumerate() {
                let field_path = at(&at(&here, "fields"), j);
                for (key, max) in [
                    ("name", MAX_EMBED_FIELD_NAME),
                    ("value", MAX_EMBED_FIELD_VALUE),
                ] {
                    let n = trimmed(&field[key]);
                    total += n;
                    if n > max {
                        errors.push(
                            &at(&field_path, key),
                            "BASE_TYPE_MAX_LENGTH",
                            format!("Must be {max} or fewer in length."),
                        );
                    }
                }
            }
        }
    }
    if total > MAX_EMBED_TOTAL {
        errors.push(
            path,
            "MAX_EMBED_SIZE_EXCEEDED",
            format!("Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"),
        );
    }
}

/// Component limits (<https://discord.com/developers/docs/components/reference>): at most 5
/// action rows, at most 5 buttons (or one select) per row, `custom_id` 1-100 characters,
/// button labels up to 80, select options up to 25 (label, value, description up to 100),
/// placeholders up to 150.
fn check_components(components: &Value, path: &[String], errors: &mut FormErrors) {
    let Some(rows) = components.as_array() else {
        return;
    };
    errors.max_items(path, components, MAX_ACTION_ROWS);
    for (i, row) in rows.iter().enumerate() {
        let row_path = at(path, i);
        let children = &row["components"];
        let Some(list) = children.as_array() else {
            continue;
        };
        let buttons = list
            .iter()
            .filter(|c| c["type"].as_u64() == Some(2))
            .count();
        if buttons > MAX_BUTTONS_PER_ROW {
            errors.push(
                &at(&row_path, "components"),
                "BASE_TYPE_MAX_LENGTH",
                format!("Must be {MAX_BUTTONS_PER_ROW} or fewer in length."),
            );
        }
        for (j, component) in list.iter().enumerate() {
            let here = at(&at(&row_path, "components"), j);
            if component.get("custom_id").is_some() {
                errors.bad_len(
                    &at(&here, "custom_id"),
                    &component["custom_id"],
                    1,
                    MAX_CUSTOM_ID,
                );
            }
            match component["type"].as_u64() {
                Some(2) => {
                    errors.max_len(&at(&here, "label"), &component["label"], MAX_BUTTON_LABEL)
                }
                Some(3 | 5..=8) => {
                    errors.max_len(
                        &at(&here, "placeholder"),
                        &component["placeholder"],
                        MAX_SELECT_PLACEHOLDER,
                    );
                    errors.max_items(
                        &at(&here, "options"),
                        &component["options"],
                        MAX_SELECT_OPTIONS,
                    );
                    for (k, option) in component["options"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .enumerate()
                    {
                        let option_path = at(&at(&here, "options"), k);
                        for key in ["label", "value", "description"] {
                            errors.max_len(
                                &at(&option_path, key),
                                &option[key],
                                MAX_SELECT_OPTION_TEXT,
                            );
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// A modal (callback type 9, [`MAX_MODAL_TITLE`] and the text input limits): a title and a
/// custom id, 1-5 action rows each holding one text input (type 4) with its custom id, a
/// label, a style (1 short, 2 paragraph) and lengths within 0-4000.
pub(crate) fn check_modal(data: &Value, path: &[String], errors: &mut FormErrors) {
    for (key, max) in [("title", MAX_MODAL_TITLE), ("custom_id", MAX_CUSTOM_ID)] {
        match &data[key] {
            Value::String(text) => {
                errors.bad_len(&at(path, key), &Value::String(text.clone()), 1, max)
            }
            _ => errors.push(
                &at(path, key),
                "BASE_TYPE_REQUIRED",
                "This field is required".into(),
            ),
        }
    }
    let rows = &data["components"];
    let count = rows.as_array().map_or(0, Vec::len);
    if !(1..=MAX_MODAL_COMPONENTS).contains(&count) {
        errors.push(
            &at(path, "components"),
            "BASE_TYPE_BAD_LENGTH",
            format!("Must be between 1 and {MAX_MODAL_COMPONENTS} in length."),
        );
    }
    for (i, row) in rows.as_array().into_iter().flatten().enumerate() {
        let row_path = at(&at(path, "components"), i);
        let inputs = row["components"].as_array().cloned().unwrap_or_default();
        if row["type"].as_u64() != Some(1) || inputs.len() != 1 {
            errors.push(
                &row_path,
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "An action row in a modal holds exactly one text input".into(),
            );
            continue;
        }
        let input = &inputs[0];
        let here = at(&at(&row_path, "components"), 0);
        if input["type"].as_u64() != Some(4) {
            errors.push(
                &at(&here, "type"),
                "UNION_TYPE_CHOICES",
                "Value of field \"type\" must be one of (4,).".into(),
            );
        }
        errors.bad_len(
            &at(&here, "custom_id"),
            &input["custom_id"],
            1,
            MAX_CUSTOM_ID,
        );
        errors.bad_len(
            &at(&here, "label"),
            &input["label"],
            1,
            MAX_TEXT_INPUT_LABEL,
        );
        errors.max_len(
            &at(&here, "placeholder"),
            &input["placeholder"],
            MAX_TEXT_INPUT_PLACEHOLDER,
        );
        if !matches!(input["style"].as_u64(), Some(1 | 2)) {
            errors.push(
                &at(&here, "style"),
                "BASE_TYPE_CHOICES",
                "Value must be one of (1, 2).".into(),
            );
        }
        for (key, min) in [("min_length", 0), ("max_length", 1)] {
            if let Some(n) = input[key].as_u64()
                && !(min..=MAX_TEXT_INPUT_LENGTH).contains(&n)
            {
                errors.push(
                    &at(&here, key),
                    "NUMBER_TYPE_MAX",
                    format!("int value should be between {min} and {MAX_TEXT_INPUT_LENGTH}."),
                );
            }
        }
    }
}

/// Autocomplete result (callback type 8): at most 25 choices, names 1-100 characters,
/// string values up to 100.
pub(crate) fn check_choices(data: &Value, path: &[String], errors: &mut FormErrors) {
    let choices = &data["choices"];
    let path = at(path, "choices");
    errors.max_items(&path, choices, MAX_CHOICES);
    for (i, choice) in choices.as_array().into_iter().flatten().enumerate() {
        let here = at(&path, i);
        errors.bad_len(&at(&here, "name"), &choice["name"], 1, MAX_CHOICE_TEXT);
        errors.max_len(&at(&here, "value"), &choice["value"], MAX_CHOICE_TEXT);
    }
}

/// A thread name (1-100 characters; required when `required`) and `auto_archive_duration`
/// (one of 60, 1440, 4320, 10080), as in Start Thread and Modify Channel.
pub(crate) fn check_thread_fields(body: &Value, required: bool, errors: &mut FormErrors) {
    let name_path = vec!["name".to_string()];
    match &body["name"] {
        Value::Null if required => errors.push(
            &name_path,
            "BASE_TYPE_REQUIRED",
            "This field is required".into(),
        ),
        Value::Null => {}
        Value::String(_) => errors.bad_len(&name_path, &body["name"], 1, MAX_CHANNEL_NAME),
        _ => errors.push(
            &name_path,
            "STRING_TYPE_CONVERT",
            "Could not interpret the value as string.".into(),
        ),
    }
    let duration = &body["auto_archive_duration"];
    if !duration.is_null()
        && !duration
            .as_u64()
            .is_some_and(|d| AUTO_ARCHIVE_DURATIONS.contains(&d))
    {
        errors.push(
            &["auto_archive_duration".to_string()],
            "BASE_TYPE_CHOICES",
            "Value must be one of {60, 1440, 4320, 10080}.".into(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_nest_by_field_path() {
        let mut errors = FormErrors::default();
        let body = json!({ "embeds": [{ "title": "t".repeat(257) }] });
        check_message(&body, &["data".to_string()], &mut errors);
        let json = errors.to_json();
        assert_eq!(
            json["data"]["embeds"]["0"]["title"]["_errors"][0]["code"],
            "BASE_TYPE_MAX_LENGTH"
        );
    }

    #[test]
    fn embed_whitespace_is_trimmed_before_counting() {
        let mut errors = FormErrors::default();
        let title = format!("  {}  ", "t".repeat(256));
        check_message(&json!({ "embeds": [{ "title": title }] }), &[], &mut errors);
        assert!(errors.is_empty());
    }
}
