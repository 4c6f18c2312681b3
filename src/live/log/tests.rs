//! The log's reading of names, expiries and the service view.

use super::*;

#[test]
fn names_give_their_guid_and_sequence() {
    assert_eq!(guid_of("0a1b2c3d-lock-0000000017"), Some(0x0a1b2c3d));
    assert_eq!(seq_of("0a1b2c3d-lock-0000000017"), Some(17));
    assert_eq!(seq_of("0a1b2c3d-lock--2147483648"), Some(i32::MIN));
    assert_eq!(guid_of("pad-0000000001"), None);
}

#[test]
fn a_node_deleted_without_its_owner_asking_is_an_expiry() {
    let log = Log::new(2, true);
    log.register_guid(7, ActorId(0));
    log.register_guid(8, ActorId(1));
    log.service_created("00000007-lock-0000000017");
    log.service_created("00000008-lock-0000000018");
    let b = log.node("00000008-lock-0000000018");
    log.deleting(ActorId(1), b);
    log.service_deleted("00000008-lock-0000000018");
    let a = log.node("00000007-lock-0000000017");
    log.service_created("00000009-lock-0000000019");
    log.service_first(log.node("00000009-lock-0000000019"));
    assert_ne!(a, b);
    let g = log.take();
    let expired: Vec<ActorId> = g
        .rec
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::SessionExpired { owner, .. } => Some(owner),
            _ => None,
        })
        .collect();
    assert_eq!(
        expired,
        vec![ActorId(0)],
        "B asked for its deletion, A did not"
    );
    assert_eq!(
        g.nodes.iter().filter(|n| n.deleted_ms.is_none()).count(),
        1,
        "only 19 is left"
    );
}

#[test]
fn two_holders_in_the_service_view_fail_one_holder() {
    let log = Log::new(2, true);
    log.register_guid(1, ActorId(0));
    log.register_guid(2, ActorId(1));
    log.service_created("00000001-lock-0000000001");
    log.service_created("00000002-lock-0000000002");
    for (c, name) in [
        (0u8, "00000001-lock-0000000001"),
        (1, "00000002-lock-0000000002"),
    ] {
        let node = Some(log.node(name));
        let view = ClientView {
            state: SpanState::Holding { token: 1 },
            node,
            believes_holding: true,
            ..ClientView::default()
        };
        log.client(ActorId(c), view);
    }
    let g = log.take();
    let one = g.checks.iter().find(|c| c.name == invariant::ONE_HOLDER);
    assert_eq!(one.map(|c| c.held), Some(false));
    assert_eq!(g.max_holders, 2);
}
