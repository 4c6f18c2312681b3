//! The tree's rules, one by one.

use super::*;

fn tree() -> (Tree, DirId, SessionId, SessionId) {
    let mut t = Tree::new(100);
    let dir = t.add_dir("/lock", 17);
    let a = t.open_session(4_000);
    let b = t.open_session(4_000);
    (t, dir, a, b)
}

#[test]
fn sequence_numbers_come_from_the_cversion_which_only_creates_bump() {
    let (mut t, dir, a, b) = tree();
    let mut fired = Vec::new();
    let n17 = t.create(a, dir, Tag::Lock, 1, &mut fired).unwrap();
    let n18 = t.create(b, dir, Tag::Lock, 2, &mut fired).unwrap();
    assert_eq!((t.node(n17).seq, t.node(n18).seq), (17, 18));
    assert_eq!(t.node(n17).czxid, 104, "dir, two sessions, then the create");
    t.delete(n17, -1, &mut fired).unwrap();
    let next = t.create(a, dir, Tag::Lock, 3, &mut fired).unwrap();
    assert_eq!(t.node(next).seq, 19, "a delete uses up no number");
    assert!(t.node(next).czxid > t.node(n18).czxid, "zxids only grow");
    assert_eq!(t.node(n18).name(), "00000002-lock-0000000018");
}

#[test]
fn the_counter_wraps_to_a_negative_number() {
    let mut t = Tree::new(0);
    let dir = t.add_dir("/lock", i32::MAX);
    let s = t.open_session(4_000);
    let mut fired = Vec::new();
    let last = t.create(s, dir, Tag::Lock, 1, &mut fired).unwrap();
    let wrapped = t.create(s, dir, Tag::Lock, 2, &mut fired).unwrap();
    assert_eq!(t.node(last).seq, i32::MAX);
    assert_eq!(t.node(wrapped).seq, i32::MIN);
    assert!(t.node(wrapped).name().ends_with("lock--2147483648"));
    assert_eq!(
        t.sorted_children(dir)[0],
        wrapped,
        "sorting by number breaks"
    );
}

#[test]
fn watches_are_one_shot_and_expiry_deletes_exactly_the_sessions_nodes() {
    let (mut t, dir, a, b) = tree();
    let mut fired = Vec::new();
    let n17 = t.create(a, dir, Tag::Lock, 1, &mut fired).unwrap();
    let n18 = t.create(b, dir, Tag::Lock, 2, &mut fired).unwrap();
    t.watch(b, Watched::Node(n17));
    t.watch(b, Watched::Node(n17));
    fired.clear();
    let deleted = t.end_session(a, false, &mut fired);
    assert_eq!(deleted, [n17]);
    assert_eq!(
        fired,
        [Fired {
            session: b,
            target: Watched::Node(n17),
            event: WatchEvent::NodeDeleted
        }]
    );
    assert!(t.node(n18).alive);
    assert!(!t.can_fire(b, Watched::Node(n17)));
    assert_eq!(t.orphans().count(), 0);
}

#[test]
fn set_watches_fires_what_changed_while_the_client_was_away() {
    let (mut t, dir, a, b) = tree();
    let mut fired = Vec::new();
    let n17 = t.create(a, dir, Tag::Lock, 1, &mut fired).unwrap();
    let seen = t.zxid;
    t.watch(b, Watched::Node(n17));
    t.delete(n17, -1, &mut fired).unwrap();
    fired.clear();
    t.set_watches(b, seen, &[Watched::Node(n17)], &mut fired);
    assert_eq!(fired.len(), 1);
    assert_eq!(fired[0].event, WatchEvent::NodeDeleted);
    let n19 = t.create(a, dir, Tag::Lock, 3, &mut fired).unwrap();
    fired.clear();
    t.set_watches(b, t.zxid, &[Watched::Node(n19)], &mut fired);
    assert!(fired.is_empty());
    assert!(t.can_fire(b, Watched::Node(n19)), "re-registered");
}

#[test]
fn a_version_of_minus_one_bypasses_the_check() {
    let (mut t, dir, a, _) = tree();
    let mut fired = Vec::new();
    let n = t.create(a, dir, Tag::Lock, 1, &mut fired).unwrap();
    assert_eq!(t.set_data(n, 0, 7, &mut fired), Ok(1));
    assert_eq!(t.set_data(n, 0, 7, &mut fired), Err(TreeError::BadVersion));
    assert_eq!(t.set_data(n, -1, 7, &mut fired), Ok(2));
}

#[test]
fn ending_a_session_is_one_transaction_whatever_it_held() {
    // Measured on ZooKeeper 3.8 (`srvr` before and after): an expiry or a close spends exactly
    // one zxid whether the session held 0, 1 or 2 ephemeral nodes; the deletions share it.
    for held in 0..3u32 {
        let (mut t, dir, a, _) = tree();
        let mut fired = Vec::new();
        let nodes: Vec<NodeId> = (0..held)
            .map(|i| t.create(a, dir, Tag::Lock, i, &mut fired).unwrap())
            .collect();
        let before = t.zxid;
        let deleted = t.end_session(a, false, &mut fired);
        assert_eq!(deleted, nodes);
        assert_eq!(t.zxid, before + 1, "holding {held}");
        if held > 0 {
            assert_eq!(
                t.dir(dir).pzxid,
                before + 1,
                "the deletions are that transaction"
            );
        }
    }
}

proptest::proptest! {
    /// Any mix of sessions, creates, deletes and session ends: each create, delete and session
    /// end is exactly one transaction.
    #[test]
    fn every_session_end_spends_one_zxid(ops in proptest::collection::vec((0u8..3, 0usize..4), 1..40)) {
        let mut t = Tree::new(0);
        let dir = t.add_dir("/lock", 0);
        let sessions: Vec<SessionId> = (0..4).map(|_| t.open_session(4_000)).collect();
        let mut fired = Vec::new();
        for (op, s) in ops {
            let s = sessions[s];
            let before = t.zxid;
            let spent = match op {
                0 if t.is_live(s) => {
                    t.create(s, dir, Tag::Lock, 1, &mut fired).unwrap();
                    1
                }
                1 if t.is_live(s) => match t.session(s).ephemerals.first().copied() {
                    Some(n) => {
                        t.delete(n, -1, &mut fired).unwrap();
                        1
                    }
                    None => 0,
                },
                2 if t.is_live(s) => {
                    t.end_session(s, false, &mut fired);
                    1
                }
                _ => 0,
            };
            proptest::prop_assert_eq!(t.zxid, before + spent);
        }
    }
}
