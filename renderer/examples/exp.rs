fn main() {
    let a: Vec<String> = std::env::args().collect();
    let svg = std::fs::read_to_string(&a[1]).unwrap();
    let k: f32 = a[3].parse().unwrap();
    // scale width/height attributes
    let re_w = svg.find("width=\"").unwrap();
    let head_end = svg.find("viewBox").unwrap();
    let head = &svg[re_w..head_end];
    let nums: Vec<f32> = head.split('"').filter_map(|t| t.parse().ok()).collect();
    let new_head = format!(
        "width=\"{}\" height=\"{}\" ",
        (nums[0] * k) as u32,
        (nums[1] * k) as u32
    );
    let svg2 = format!("{}{}{}", &svg[..re_w], new_head, &svg[head_end..]);
    std::fs::write(&a[2], kaboom_renderer::svg_to_png(&svg2).unwrap()).unwrap();
}
