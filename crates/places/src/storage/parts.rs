//! A multipart upload that ends completed or aborted, even when the task
//! writing it is cancelled. Bytes are cut into parts of exactly one size
//! (S3 wants 5 MiB or more but for the last; R2 wants them equal), a few
//! sent at once while more bytes arrive.
//!
//! object_store's `WriteMultipart` does the rest of this, but a
//! `WriteMultipart` dropped mid-way (Ctrl-C, a client closed during a
//! download) leaves its upload open: unseen, its parts stored (and billed)
//! until a lifecycle rule ends it. Dropped before it ends, `Parts` aborts
//! its upload on a task of its own. Only a process killed outright leaves
//! one behind.

use bytes::Bytes;
use object_store::{MultipartUpload, PutPayloadMut, Result};
use tokio::task::JoinSet;

pub(super) struct Parts {
    /// None once completed or aborted: nothing is left to end.
    upload: Option<Box<dyn MultipartUpload>>,
    buffer: PutPayloadMut,
    part_size: usize,
    in_flight: usize,
    sending: JoinSet<Result<()>>,
}

impl Parts {
    /// Writes into `upload` in parts of `part_size` bytes, at most
    /// `in_flight` of them sent at once.
    pub(super) fn new(
        upload: Box<dyn MultipartUpload>,
        part_size: usize,
        in_flight: usize,
    ) -> Parts {
        Parts {
            upload: Some(upload),
            buffer: PutPayloadMut::new(),
            part_size: part_size.max(1),
            in_flight: in_flight.max(1),
            sending: JoinSet::new(),
        }
    }

    /// Adds `chunk`, sending each part it fills once fewer than the bound
    /// are in flight: a part that failed is reported here.
    pub(super) async fn put(&mut self, mut chunk: Bytes) -> Result<()> {
        while !chunk.is_empty() {
            let room = self.part_size - self.buffer.content_length();
            self.buffer.push(chunk.split_to(room.min(chunk.len())));
            if self.buffer.content_length() == self.part_size {
                self.send().await?;
            }
        }
        Ok(())
    }

    async fn send(&mut self) -> Result<()> {
        self.wait_until_at_most(self.in_flight - 1).await?;
        let part = std::mem::take(&mut self.buffer).freeze();
        if let Some(upload) = self.upload.as_mut() {
            self.sending.spawn(upload.put_part(part));
        }
        Ok(())
    }

    async fn wait_until_at_most(&mut self, parts: usize) -> Result<()> {
        while self.sending.len() > parts {
            match self.sending.join_next().await {
                Some(sent) => sent??,
                None => break,
            }
        }
        Ok(())
    }

    /// Sends what is left, waits for every part, then completes the upload.
    /// On an error the upload is still open: `abort` it.
    pub(super) async fn complete(&mut self) -> Result<()> {
        if !self.buffer.is_empty() {
            self.send().await?;
        }
        self.wait_until_at_most(0).await?;
        if let Some(upload) = self.upload.as_mut() {
            upload.complete().await?;
        }
        self.upload = None;
        Ok(())
    }

    /// Stops the parts in flight and aborts the upload. Aborting may fail
    /// too (the store is gone): no object was made of it either way.
    pub(super) async fn abort(&mut self) {
        self.sending.shutdown().await;
        if let Some(upload) = self.upload.as_mut() {
            let _ = upload.abort().await;
        }
        self.upload = None;
    }
}

impl Drop for Parts {
    fn drop(&mut self) {
        // Dropped before it ended: its task was cancelled. The parts in
        // flight stop with the `JoinSet`; the abort needs a task of its own,
        // which a runtime that is still there runs.
        if let Some(mut upload) = self.upload.take() {
            self.sending.abort_all();
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(async move {
                    let _ = upload.abort().await;
                });
            }
        }
    }
}

#[cfg(test)]
#[path = "parts_tests.rs"]
mod tests;
