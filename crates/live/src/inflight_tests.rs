use super::*;

fn pending(inflight: &mut Inflight, tenor: &str) -> String {
    let marker = inflight.marker("sub");
    inflight.push(Pending {
        marker: marker.clone(),
        purpose: Purpose::Subscribe,
        subscription: Subscription::new("c", tenor),
        replies: Vec::new(),
        retries: 0,
        sent_at: Instant::now(),
        refusal: None,
    });
    marker
}

fn refusal(code: &str) -> Refusal {
    Refusal {
        code: code.into(),
        message: String::new(),
    }
}

#[test]
fn errors_belong_to_the_oldest_command_not_yet_answered() {
    let mut inflight = Inflight::default();
    let first = pending(&mut inflight, "Jan 26");
    let second = pending(&mut inflight, "Feb 26");
    assert_ne!(first, second);
    assert!(inflight.refuse(refusal("NO_ACCESS")).is_ok());
    assert!(inflight.refuse(refusal("UNEXPECTED_ERROR")).is_ok());
    let answered = inflight.answered(&first);
    assert_eq!(answered.len(), 1);
    assert_eq!(answered[0].refusal, Some(refusal("NO_ACCESS")));
    assert!(inflight.refuse(refusal("ERROR_PARSING")).is_ok());
    let answered = inflight.answered(&second);
    assert_eq!(answered[0].refusal, Some(refusal("ERROR_PARSING")));
    assert!(inflight.is_empty());
    assert_eq!(inflight.refuse(refusal("X")), Err(refusal("X")));
}

#[test]
fn a_pong_answers_every_command_sent_before_its_marker() {
    let mut inflight = Inflight::default();
    pending(&mut inflight, "Jan 26");
    let second = pending(&mut inflight, "Feb 26");
    let third = pending(&mut inflight, "Mar 26");
    assert!(inflight.answered("keepalive-1").is_empty());
    assert_eq!(inflight.answered(&second).len(), 2);
    assert_eq!(inflight.take_all()[0].marker, third);
}
