//! A panic while answering one message becomes an error response, not the end of the
//! server.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::FutureExt;
use tower_lsp_server::jsonrpc::{self, ErrorCode, Request, Response};

/// The language server's service, answering a request whose handler panicked with an
/// internal error (and a notification whose handler panicked with nothing) instead of
/// letting the panic end the server.
pub(super) struct CatchPanics<S>(pub(super) S);

impl<S> tower_service::Service<Request> for CatchPanics<S>
where
    S: tower_service::Service<Request, Response = Option<Response>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Option<Response>;
    type Error = S::Error;
    type Future =
        Pin<Box<dyn Future<Output = std::result::Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<std::result::Result<(), S::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let id = request.id().cloned();
        let method = request.method().to_string();
        let answer = std::panic::catch_unwind(AssertUnwindSafe(|| self.0.call(request)));
        Box::pin(async move {
            let panic = match answer {
                Ok(answer) => match AssertUnwindSafe(answer).catch_unwind().await {
                    Ok(answered) => return answered,
                    Err(panic) => panic,
                },
                Err(panic) => panic,
            };
            let message = format!("ppn-ls failed on {method}: {}", panic_message(&*panic));
            eprintln!("{message}");
            Ok(id.map(|id| {
                Response::from_error(
                    id,
                    jsonrpc::Error {
                        code: ErrorCode::InternalError,
                        message: message.into(),
                        data: None,
                    },
                )
            }))
        })
    }
}

pub(super) fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic")
}
