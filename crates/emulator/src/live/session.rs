//! One connection's side of the conversation: every row of the interface's
//! "Live connection" table, carried out for each frame the client sends.
//!
//! Choices where the interface is silent:
//! - after `auth-failed` the connection stays open and unauthenticated; a
//!   later `auth` with a valid token succeeds;
//! - an `auth` on an authenticated connection that fails leaves it
//!   authenticated as before (its subscriptions go on); one that succeeds
//!   makes the new token's account the connection's;
//! - a command before authentication is answered `NOT_LOGGED`, then a close
//!   frame with code 1008 (policy violation); frames that are not valid
//!   commands get their own error first and leave the connection open;
//! - the licence is checked when subscribing; a subscription made stays;
//! - an `unsubscribe` is never answered, even for an unknown curve.

use std::sync::Arc;

use serde_json::Value;

use super::command::{
    parse_command, CommandError, BINARY_MESSAGE, NOT_LOGGED, NO_ACCESS, UNEXPECTED_ERROR,
};
use super::peer::Peer;
use super::Parts;
use domain::live::{Command, ServerMessage, Subscription};

/// The close code after `NOT_LOGGED`: 1008, policy violation.
pub(crate) const NOT_LOGGED_CODE: u16 = 1008;

pub(crate) struct Session<'a> {
    state: Parts<'a>,
    peer: Arc<Peer>,
    account: Option<String>,
}

impl<'a> Session<'a> {
    pub(crate) fn new(state: Parts<'a>, peer: Arc<Peer>) -> Session<'a> {
        Session {
            state,
            peer,
            account: None,
        }
    }

    pub(crate) fn on_binary(&mut self) {
        self.peer.touch(self.state.clock.now());
        self.error(
            BINARY_MESSAGE,
            "binary frames are not accepted: send JSON text frames",
        );
    }

    pub(crate) fn on_text(&mut self, text: &str) {
        self.peer.touch(self.state.clock.now());
        let command = match parse_command(text) {
            Ok(command) => command,
            Err(CommandError { code, message }) => return self.error(code, &message),
        };
        let authenticated = self.account.is_some();
        if !authenticated && !matches!(command, Command::Auth(_)) {
            self.error(
                NOT_LOGGED,
                "authenticate first: the first command must be auth",
            );
            self.peer
                .outbox
                .update(|o| o.close(NOT_LOGGED_CODE, "not logged in"));
            return;
        }
        if authenticated && self.state.live.faults.take_command_failure() {
            return self.error(UNEXPECTED_ERROR, "internal error (injected); retry");
        }
        match command {
            Command::Auth(token) => self.auth(&token),
            Command::Subscribe(subscription) => self.subscribe(&subscription),
            Command::Unsubscribe(subscription) => self.unsubscribe(&subscription),
            Command::Ping(payload) => self.ping(payload),
        }
    }

    fn auth(&mut self, token: &str) {
        let now = self.state.clock.now();
        let verified = if self.state.live.faults.take_auth_failure() {
            None
        } else {
            self.state.accounts.verify(token, now).ok()
        };
        match verified {
            Some(account) => {
                if self.account.is_none() {
                    // The no-subscription timer runs from authentication.
                    self.peer.restart_quiet_timer(now);
                }
                self.account = Some(account);
                self.send(ServerMessage::AuthSuccess);
            }
            None => self.send(ServerMessage::AuthFailed),
        }
    }

    fn subscribe(&mut self, subscription: &Subscription) {
        let state = self.state;
        let id = &subscription.curve_id;
        let world = state.world.get();
        let Some(curve) = world.curve(id) else {
            return self.error(NO_ACCESS, &format!("unknown curve id {id:?}"));
        };
        let account = self.account.as_deref().unwrap_or_default();
        let licence = state.accounts.licence(account);
        if !licence.live {
            return self.error(NO_ACCESS, "this account is not enabled for live data");
        }
        if !licence.allows_live(curve.quotation) {
            let message = format!("quotation {:?} is not in your licence", curve.quotation);
            return self.error(NO_ACCESS, &message);
        }
        let now = state.clock.now();
        state.live.with_registry(|registry| {
            registry.subscribe(&world, &self.peer, curve, &subscription.tenor, now);
        });
        state.live.wake_publisher();
    }

    fn unsubscribe(&mut self, subscription: &Subscription) {
        let state = self.state;
        let world = state.world.get();
        if let Some(curve) = world.curve(&subscription.curve_id) {
            let now = state.clock.now();
            state.live.with_registry(|registry| {
                registry.unsubscribe(&self.peer, curve, &subscription.tenor, now);
            });
        }
    }

    fn ping(&mut self, payload: Value) {
        // Unanswered pings (a fault) still count as activity: see `on_text`.
        if self.state.live.faults.answer_pings() {
            self.send(ServerMessage::Pong(payload));
        }
    }

    fn error(&self, code: &str, message: &str) {
        self.send(ServerMessage::Error {
            code: code.to_owned(),
            message: message.to_owned(),
        });
    }

    fn send(&self, message: ServerMessage) {
        let frame = message.encode().into();
        if !self
            .peer
            .outbox
            .update(|o| o.reply(frame) || o.is_closing())
        {
            // Too many replies left unread: the client does not read.
            self.peer.drop_connection();
        }
    }
}
