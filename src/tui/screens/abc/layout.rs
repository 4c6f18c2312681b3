//! Where each part of the A/B/C screen goes, on a small terminal and a wide one.

use ratatui::layout::Rect;

use crate::tui::widgets::lanes;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbcLayout {
    pub title: Rect,
    pub about: Rect,
    pub main: Rect,
    pub lanes: Rect,
    pub caption2: Option<Rect>,
    pub lanes2: Option<Rect>,
    pub legend: Rect,
    /// The service panel: a block on a wide terminal, one line on a small one.
    pub service: Rect,
    pub event: Rect,
    pub badges: Rect,
    pub recipe: Rect,
    pub log: Option<Rect>,
    pub footer: Rect,
}

/// The layout for `lane_count` lanes, with `legend_h` rows for the legend (as many as it needs,
/// so that it names every class and mark the lanes can show).
pub fn layout(
    area: Rect,
    lane_count: usize,
    compare: bool,
    band: bool,
    legend_h: u16,
) -> AbcLayout {
    let wide = area.width >= 120 && area.height >= 30;
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
    let mut about_h: u16 = if wide {
        2
    } else if compare {
        0
    } else {
        1
    };
    // service + event + badges + recipe under the lanes.
    let n = lane_count.max(1) as u16;
    let fixed = 1 + u16::from(band);
    // Rows a lane gets in a compare with `free` rows for both runs.
    let compare_per = |free: u16| (free.saturating_sub(1 + 2 * fixed) / (2 * n)).clamp(1, 3);
    // The badges' rows on a wide terminal: the invariants, the wake-ups and the run's summary.
    // A wide compare gives up a row of the event, the badges and the service panel when that
    // is what gives every lane a second row.
    let wide_compare = |tight: bool| if tight { (1, 3, 4, 2) } else { (2, 5, 4, 2) };
    let tight = wide && compare && {
        let rest = |(a, b, c, d): (u16, u16, u16, u16)| {
            area.height
                .saturating_sub(2 + about_h + legend_h.min(3) + a + b + c + d)
        };
        compare_per(rest(wide_compare(false))) < 2 && compare_per(rest(wide_compare(true))) >= 2
    };
    let (service_h, event_h, badges_h, recipe_h) = if wide && compare {
        wide_compare(tight)
    } else if wide {
        (6, 3, 4, 3)
    } else if compare {
        (1, 1, 1, 1)
    } else {
        (1, 2, 2, 1)
    };
    let bottom_min = service_h + event_h + badges_h + recipe_h + u16::from(compare && !wide);
    // The legend takes the rows it needs, unless a compared run would lose a lane's row.
    let least_lanes = if compare {
        1 + lanes::height(lane_count, 1, true, band) + lanes::height(lane_count, 1, false, band)
    } else {
        lanes::height(lane_count, 1, true, band)
    };
    let legend_h = legend_h.min(
        area.height
            .saturating_sub(2 + about_h + bottom_min + least_lanes)
            .max(1),
    );
    let free = area
        .height
        .saturating_sub(2 + about_h + legend_h + bottom_min);
    let main_h = if compare {
        let per = compare_per(free);
        (1 + lanes::height(lane_count, per, true, band)
            + lanes::height(lane_count, per, per > 1, band))
        .min(free)
    } else {
        let per = (free.saturating_sub(fixed) / n).clamp(1, if wide { 4 } else { 2 });
        lanes::height(lane_count, per, true, band).min(free)
    };
    // A row the lanes cannot use gives the preset's words a second row on a small terminal,
    // so they end where their sentence does.
    if !wide && !compare && free > main_h {
        about_h += 1;
    }
    let about = Rect::new(area.x, area.y + 1, area.width, about_h);
    let main = Rect::new(area.x, about.bottom(), area.width, main_h);
    let (lanes, caption2, lanes2) = lanes::lane_areas(main, compare);
    let legend = Rect::new(
        area.x,
        main.bottom(),
        area.width,
        legend_h.min(footer.y.saturating_sub(main.bottom())),
    );
    let top = legend.bottom();
    let bottom_h = footer.y.saturating_sub(top);
    let left_w = if wide {
        72.min(area.width / 2)
    } else {
        area.width
    };
    let mut y = top;
    let mut take = |h: u16| {
        let r = Rect::new(area.x, y, left_w, h.min(footer.y.saturating_sub(y)));
        y = (y + h).min(footer.y);
        r
    };
    let extra = bottom_h.saturating_sub(bottom_min);
    // The event first, then the lock directory (which grows), the badges and the recipe.
    let event = take(event_h + u16::from(compare && !wide));
    let service = take(service_h + if wide { extra } else { 0 });
    // Rows the lanes could not use go to the badges and the recipe, so neither is cut.
    let spare = if wide { 0 } else { extra };
    let badges = take(badges_h + spare.min(1));
    let recipe = take(recipe_h + spare.saturating_sub(1));
    let log = wide.then(|| {
        Rect::new(
            area.x + left_w + 1,
            top,
            area.width.saturating_sub(left_w + 1),
            bottom_h,
        )
    });
    AbcLayout {
        title,
        about,
        main,
        lanes,
        caption2,
        lanes2,
        legend,
        service,
        event,
        badges,
        recipe,
        log,
        footer,
    }
}
