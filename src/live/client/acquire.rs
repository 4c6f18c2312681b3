//! Taking the lock: creating the node, reading the children, watching the one to wait for,
//! checking it after a notification, and recovering the node after a lost connection.

use super::*;

impl Runner {
    pub(super) async fn create(&mut self) -> Next {
        self.step = Step::Creating;
        self.event(EventKind::CreateSent { guid: self.p.guid });
        self.log.register_guid(self.p.guid, self.id());
        let req = self.request(ZkOp::Create {
            dir: DIR,
            tag: Tag::Lock,
            guid: self.p.guid,
        });
        self.view();
        let Some(zk) = self.zk.clone() else {
            return Next::Nothing;
        };
        let prefix = self.path(&format!("{:08x}-lock-", self.p.guid));
        let opts = CreateMode::EphemeralSequential.with_acls(Acls::anyone_all());
        let mut created = zk.create(&prefix, &[], &opts).await;
        if self.p.container_dir && matches!(created, Err(zookeeper_client::Error::NoNode)) {
            // The server deleted the empty directory: make it again and create once more.
            let dir = CreateMode::Container.with_acls(Acls::anyone_all());
            match zk.create(&self.p.dir, &[], &dir).await {
                Ok(_) | Err(zookeeper_client::Error::NodeExists) => {
                    created = zk.create(&prefix, &[], &opts).await;
                }
                Err(e) => created = Err(e),
            }
        }
        match created {
            Ok((stat, seq)) => {
                let name = format!("{:08x}-lock-{seq}", self.p.guid);
                self.log.service_created(&name);
                let node = self.log.node(&name);
                let czxid = stat.czxid as u64;
                self.log.set_czxid(node, czxid);
                self.reply(req, ZkResult::Created { node, czxid });
                self.event(EventKind::GotNode { node });
                self.node = Some((node, name));
                self.token = czxid;
                Next::Read
            }
            Err(e) => match self.failed(req, Request::Create, &e) {
                Next::Release => self.lose().await,
                _ => {
                    self.event(EventKind::CreateOutcomeUnknown);
                    self.step = Step::Unknown;
                    self.redo = Some(Redo::Recover);
                    self.if_connected_redo()
                }
            },
        }
    }

    /// After a connection loss: redo at once if the library has already reconnected.
    pub(super) fn if_connected_redo(&mut self) -> Next {
        let connected = self
            .zk
            .as_ref()
            .is_some_and(|z| z.state() == SessionState::SyncConnected);
        if connected && self.connected {
            self.on_reconnected()
        } else {
            Next::Nothing
        }
    }

    pub(super) async fn read(&mut self) -> Next {
        if self.step != Step::Holding {
            self.step = Step::Reading;
        }
        let watch = self.p.recipe.watch == WatchMode::Children && self.step != Step::Holding;
        let req = self.request(ZkOp::GetChildren { dir: DIR, watch });
        self.view();
        let Some(zk) = self.zk.clone() else {
            return Next::Nothing;
        };
        let result = if watch {
            zk.get_and_watch_children(&self.p.dir)
                .await
                .map(|(c, _, w)| (c, Some(w)))
        } else {
            zk.list_children(&self.p.dir).await.map(|c| (c, None))
        };
        match result {
            Ok((names, w)) => {
                self.log.service_children(&names);
                let children = self.children(&names);
                self.reply(
                    req,
                    ZkResult::Children {
                        children: children.clone(),
                    },
                );
                if let Some(w) = w {
                    let target = Watched::Children(DIR);
                    self.log.watch(self.id(), target, true);
                    self.new_watch = Some((target, Box::pin(w.changed())));
                    self.can_fire = true;
                }
                self.delete_between().await;
                match self.step {
                    Step::Reading | Step::Holding => self.children_read(&children).await,
                    _ => Next::Nothing,
                }
            }
            Err(e) => match self.failed(req, Request::GetChildren, &e) {
                Next::Release => self.lose().await,
                _ => {
                    self.redo = Some(if self.revalidating {
                        Redo::Revalidate
                    } else {
                        Redo::Read
                    });
                    self.if_connected_redo()
                }
            },
        }
    }

    /// The reader of a delete-between fault: right after its read is answered, the owner
    /// releases, before this client's next request goes out.
    pub(super) async fn delete_between(&mut self) {
        let Some(owner) = self.p.delete_between.clone() else {
            return;
        };
        if self.delete_between_done || self.step != Step::Reading {
            return;
        }
        self.delete_between_done = true;
        owner.release_now.store(true, Ordering::Relaxed);
        for _ in 0..1000 {
            if owner.released.load(Ordering::Relaxed) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    pub(super) async fn children_read(&mut self, children: &[ChildName]) -> Next {
        let nodes: Vec<NodeId> = children.iter().map(|c| c.node).collect();
        let mine = self.node.as_ref().map(|(id, _)| *id);
        self.event(EventKind::ChildrenRead {
            children: nodes.clone(),
            mine,
        });
        let Some(mine) = mine else {
            return Next::Nothing;
        };
        let Some(idx) = nodes.iter().position(|n| *n == mine) else {
            // Its node is gone: the session that owned it must have ended.
            return self.lose().await;
        };
        if self.revalidating {
            self.revalidating = false;
            let still_first = idx == 0;
            self.event(EventKind::Revalidated { still_first });
            if still_first {
                self.suspended = false;
                return self.resume();
            }
            return self.lose().await;
        }
        if idx == 0 {
            self.log.service_first(mine);
            self.acquire(mine, children[0].seq);
            return Next::Nothing;
        }
        match self.p.recipe.watch {
            WatchMode::Children => {
                self.event(EventKind::WatchChildren);
                self.step = Step::Waiting(Watched::Children(DIR));
                Next::Nothing
            }
            WatchMode::Predecessor | WatchMode::Ahead(_) => {
                let k = match self.p.recipe.watch {
                    WatchMode::Ahead(k) => k.max(1) as usize,
                    _ => 1,
                };
                let target = nodes[idx.saturating_sub(k)];
                self.step = Step::Checking(target);
                Next::Check(target)
            }
        }
    }

    pub(super) async fn check(&mut self, target: NodeId) -> Next {
        let req = self.request(ZkOp::Exists {
            node: target,
            watch: true,
        });
        self.view();
        let (Some(zk), Some(name)) = (self.zk.clone(), self.log.node_name(target)) else {
            return Next::Nothing;
        };
        match zk.check_and_watch_stat(&self.path(&name)).await {
            Ok((stat, w)) => {
                let exists = stat.is_some();
                let stat = stat.map(|s| Stat {
                    czxid: s.czxid as u64,
                    version: s.version,
                });
                self.reply(req, ZkResult::Exists { stat });
                self.event(EventKind::ExistsChecked {
                    node: target,
                    exists,
                });
                let on = Watched::Node(target);
                self.log.watch(self.id(), on, true);
                if exists || self.p.recipe.registration == Registration::TwoStep {
                    // The broken two-step recipe trusts its earlier read and waits anyway.
                    self.event(EventKind::Waiting { on });
                    self.step = Step::Waiting(on);
                    self.can_fire = exists;
                    self.new_watch = Some((on, Box::pin(w.changed())));
                    Next::Nothing
                } else {
                    self.log.watch(self.id(), on, false);
                    Next::Read
                }
            }
            Err(e) => match self.failed(req, Request::Exists, &e) {
                Next::Release => self.lose().await,
                _ => {
                    self.redo = Some(Redo::Read);
                    self.if_connected_redo()
                }
            },
        }
    }

    /// GUID recovery: find this request's node among the children.
    pub(super) async fn recover(&mut self) -> Next {
        self.step = Step::Recovering;
        let req = self.request(ZkOp::GetChildren {
            dir: DIR,
            watch: false,
        });
        self.view();
        let Some(zk) = self.zk.clone() else {
            return Next::Nothing;
        };
        let names = match zk.list_children(&self.p.dir).await {
            Ok(n) => n,
            Err(e) => {
                return match self.failed(req, Request::GetChildren, &e) {
                    Next::Release => self.lose().await,
                    _ => {
                        self.redo = Some(Redo::Recover);
                        self.if_connected_redo()
                    }
                };
            }
        };
        self.log.service_children(&names);
        let children = self.children(&names);
        self.reply(
            req,
            ZkResult::Children {
                children: children.clone(),
            },
        );
        let mine: Vec<NodeId> = children
            .iter()
            .filter(|c| c.guid == self.p.guid)
            .map(|c| c.node)
            .collect();
        let Some((&keep, extras)) = mine.split_first() else {
            return Next::Create;
        };
        self.event(EventKind::RecoveredNode { node: keep });
        for &extra in extras {
            self.event(EventKind::DuplicateDeleted { node: extra });
            self.log.deleting(self.id(), extra);
            let req = self.request(ZkOp::Delete {
                node: extra,
                version: -1,
            });
            if let Some(name) = self.log.node_name(extra)
                && zk.delete(&self.path(&name), None).await.is_ok()
            {
                self.reply(req, ZkResult::Done);
                self.log.service_deleted(&name);
            }
        }
        let Some(name) = self.log.node_name(keep) else {
            return Next::Nothing;
        };
        self.node = Some((keep, name.clone()));
        if self.p.recipe.token == TokenSource::Sequence {
            return Next::Read;
        }
        self.step = Step::Confirming;
        let req = self.request(ZkOp::Exists {
            node: keep,
            watch: false,
        });
        match zk.check_stat(&self.path(&name)).await {
            Ok(Some(s)) => {
                self.token = s.czxid as u64;
                let stat = Some(Stat {
                    czxid: s.czxid as u64,
                    version: s.version,
                });
                self.reply(req, ZkResult::Exists { stat });
                Next::Read
            }
            Ok(None) => {
                self.reply(req, ZkResult::Exists { stat: None });
                self.lose().await
            }
            Err(e) => match self.failed(req, Request::Exists, &e) {
                Next::Release => self.lose().await,
                _ => {
                    self.redo = Some(Redo::Recover);
                    self.if_connected_redo()
                }
            },
        }
    }

    pub(super) fn acquire(&mut self, node: NodeId, seq: i32) {
        if self.p.recipe.token == TokenSource::Sequence {
            self.token = seq.max(0) as u64;
        }
        self.event(EventKind::Acquired {
            node,
            token: self.token,
        });
        self.step = Step::Holding;
        let now = self.log.now();
        self.write_at = Some(now + self.p.recipe.write_after_ms);
        self.release_at = Some(now + self.p.recipe.hold_ms);
    }
}
