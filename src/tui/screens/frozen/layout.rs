//! Where everything on the frozen-holder screen sits, shared by drawing and mouse hit-testing.

use super::*;

/// Where everything sits; shared by drawing and mouse hit-testing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrozenLayout {
    pub title: Rect,
    /// What the preset teaches, under the title (no rows for a run of no preset).
    pub about: Rect,
    /// The lanes region (or the sequence chart), both runs when comparing.
    pub main: Rect,
    pub lanes: Rect,
    pub caption2: Option<Rect>,
    pub lanes2: Option<Rect>,
    pub legend: Rect,
    /// The resource, the event, where the runs part, the formulas and the verdict.
    pub info: Rect,
    pub toggles: Rect,
    pub sliders: Vec<Rect>,
    /// The event log, beside the controls when the terminal is wide enough.
    pub log: Option<Rect>,
    pub footer: Rect,
}

pub(super) const LANES: usize = 4;

pub fn layout(area: Rect, compare: bool) -> FrozenLayout {
    layout_with(area, compare, false)
}

/// The layout, with rows under the title for what the preset teaches when `about`.
pub fn layout_with(area: Rect, compare: bool, about: bool) -> FrozenLayout {
    let wide = area.width >= 120 && area.height >= 30;
    let about_h: u16 = match (about, wide, compare) {
        (false, ..) | (true, false, true) => 0,
        (true, true, _) => 2,
        (true, false, false) => 1,
    };
    let band = true;
    let title = Rect {
        height: 1.min(area.height),
        ..area
    };
    let footer = Rect::new(
        area.x,
        area.bottom().saturating_sub(1),
        area.width,
        1.min(area.height),
    );
    let slider_rows: u16 = if wide { 5 } else { 3 };
    let info_rows: u16 = match (wide, compare) {
        (true, false) => 11,
        (true, true) => 15,
        (false, false) => 6,
        (false, true) => 5,
    };
    let bottom_min = info_rows + 1 + slider_rows;
    // The legend names every class and mark the lanes can show, on as many rows as it needs,
    // unless that would leave a compared run without a row for each lane.
    let legend_rows = crate::tui::widgets::legend::rows_for(
        crate::engine::trace::Family::Frozen,
        &[],
        compare,
        area.width,
    );
    let least_lanes = if compare {
        1 + lanes::height(LANES, 1, true, band) + lanes::height(LANES, 1, false, band)
    } else {
        lanes::height(LANES, 1, true, band)
    };
    let legend_rows = legend_rows.min(
        area.height
            .saturating_sub(2 + about_h + bottom_min + least_lanes)
            .max(1),
    );
    // The lanes take what they can use; the rest goes to the info panel and the log.
    let max_per = if wide { 4 } else { 2 };
    let want = |per: u16| lanes::height(LANES, per, true, band);
    let lanes_for = |free: u16| {
        if compare {
            let per = ((free.saturating_sub(1)) / 2)
                .saturating_sub(2)
                .checked_div(LANES as u16)
                .unwrap_or(1)
                .clamp(1, 3);
            (
                per,
                (1 + want(per) + lanes::height(LANES, per, per > 1, band)).min(free),
            )
        } else {
            let per = (free.saturating_sub(2) / LANES as u16).clamp(1, max_per);
            (per, want(per).min(free))
        }
    };
    let free = area
        .height
        .saturating_sub(2 + about_h + legend_rows + bottom_min);
    let (per, main_h) = lanes_for(free);
    // One-row lanes beside an info panel in its roomy form: the lanes come first, and get a
    // second row each when the panel's compact form (one row a part) leaves room for it.
    let compact_info: u16 = if compare { 5 } else { 6 };
    let main_h = if per < 2 && info_rows > compact_info {
        let roomier = free + info_rows - compact_info;
        match lanes_for(roomier) {
            (p, h) if p >= 2 => h,
            _ => main_h,
        }
    } else {
        main_h
    };
    let about = Rect::new(area.x, area.y + 1, area.width, about_h.min(area.height));
    let main = Rect::new(area.x, about.bottom(), area.width, main_h);
    let (lanes, caption2, lanes2) = lanes::lane_areas(main, compare);
    let legend = Rect::new(
        area.x,
        main.bottom(),
        area.width,
        legend_rows.min(footer.y.saturating_sub(main.bottom())),
    );
    let top = legend.bottom();
    let bottom_h = footer.y.saturating_sub(top);
    let left_w = if wide {
        62.min(area.width / 2)
    } else {
        area.width
    };
    let controls_h = (1 + slider_rows).min(bottom_h);
    let info = Rect::new(area.x, top, left_w, bottom_h.saturating_sub(controls_h));
    let toggles = Rect::new(area.x, info.bottom(), left_w, 1.min(controls_h));
    let sliders = (0..FROZEN_SPECS.len())
        .map(|i| {
            let i = i as u16;
            let (row, col, w) = if wide {
                (i, 0, left_w)
            } else {
                (i / 2, i % 2, left_w / 2)
            };
            let y = toggles.bottom() + row;
            let h = u16::from(y < footer.y);
            Rect::new(area.x + col * w, y, w, h)
        })
        .collect();
    let log = wide.then(|| {
        Rect::new(
            area.x + left_w + 1,
            top,
            area.width.saturating_sub(left_w + 1),
            bottom_h,
        )
    });
    FrozenLayout {
        title,
        about,
        main,
        lanes,
        caption2,
        lanes2,
        legend,
        info,
        toggles,
        sliders,
        log,
        footer,
    }
}
