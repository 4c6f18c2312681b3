//! Who waits for something that can never happen, worked out as the model's check does: a
//! watch that cannot fire (set on a node already gone), or a wait on a node whose owner is itself
//! waiting for good, or a cycle of such waits (a client waiting on its own forgotten node).

/// One client, as the check needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiter {
    pub waiting: bool,
    /// Its watch can still fire.
    pub can_fire: bool,
    /// Connected with a live session: a client that will reconnect or learn of an expiry is
    /// not stuck yet.
    pub live: bool,
    /// The client owning the node it waits on, if any.
    pub waits_on: Option<usize>,
    /// It gave up and left its node queued: nobody will delete that node while its session
    /// lives, so whoever waits on it waits for good.
    pub abandoned: bool,
}

/// Which clients are stuck.
pub fn stuck(clients: &[Waiter]) -> Vec<bool> {
    let n = clients.len();
    let waiting: Vec<bool> = clients.iter().map(|c| c.waiting && c.live).collect();
    let mut out: Vec<bool> = clients
        .iter()
        .zip(&waiting)
        .map(|(c, &w)| w && !c.can_fire)
        .collect();
    let directly = out.clone();
    for start in 0..n {
        if !waiting[start] {
            continue;
        }
        let mut seen = vec![false; n];
        let mut cur = start;
        loop {
            if directly[cur] || seen[cur] {
                out[start] = true;
                break;
            }
            seen[cur] = true;
            match clients[cur].waits_on {
                Some(next) if next < n && clients[next].abandoned => {
                    out[start] = true;
                    break;
                }
                Some(next) if next < n && waiting[next] => cur = next,
                _ => break,
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(waits_on: Option<usize>, can_fire: bool) -> Waiter {
        Waiter {
            waiting: true,
            can_fire,
            live: true,
            waits_on,
            abandoned: false,
        }
    }

    const HOLDER: Waiter = Waiter {
        waiting: false,
        can_fire: true,
        live: true,
        waits_on: None,
        abandoned: false,
    };

    #[test]
    fn a_healthy_chain_is_not_stuck() {
        assert_eq!(
            stuck(&[HOLDER, w(Some(0), true), w(Some(1), true)]),
            [false, false, false]
        );
    }

    #[test]
    fn a_dead_watch_strands_its_client_and_everyone_behind_it() {
        assert_eq!(
            stuck(&[HOLDER, w(Some(0), false), w(Some(1), true)]),
            [false, true, true]
        );
    }

    #[test]
    fn waiting_on_ones_own_forgotten_node_is_a_cycle() {
        assert_eq!(
            stuck(&[HOLDER, w(Some(1), true), w(Some(1), true)]),
            [false, true, true]
        );
    }

    #[test]
    fn waiting_on_a_node_left_by_a_client_that_gave_up_is_for_good() {
        let gave_up = Waiter {
            waiting: false,
            abandoned: true,
            ..HOLDER
        };
        assert_eq!(
            stuck(&[HOLDER, gave_up, w(Some(1), true)]),
            [false, false, true]
        );
        // One that deleted its node on the way out strands nobody.
        let cleaned = Waiter {
            waiting: false,
            ..HOLDER
        };
        assert_eq!(
            stuck(&[HOLDER, cleaned, w(Some(1), true)]),
            [false, false, false]
        );
    }

    #[test]
    fn a_client_that_is_reconnecting_is_not_stuck_yet() {
        let mut away = w(Some(0), false);
        away.live = false;
        assert_eq!(stuck(&[HOLDER, away]), [false, false]);
    }
}
