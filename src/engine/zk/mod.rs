//! A ZooKeeper-like coordination service and the client library that talks to it.

pub mod client;
pub mod service;
pub mod tree;
