//! Semantic tokens are the one answer with hundreds of thousands of numbers. The protocol
//! library turns every answer into a tree of JSON values before writing it, a value of 32
//! bytes for each number, which took longer than finding the tokens. So their handlers
//! write the numbers' text themselves, answer with an empty `data` array and a result id,
//! and the array's text is put in place as the message leaves for the client.

use std::collections::VecDeque;
use std::sync::Mutex;

use memchr::memmem;

/// Arrays written ahead of the answers that carry their result ids.
#[derive(Default)]
pub struct WrittenArrays {
    waiting: Mutex<VecDeque<(String, Vec<u8>)>>,
}

/// How many arrays may wait at once. Each is claimed by the answer that follows its
/// handler; one is left unclaimed only when its answer never leaves (a panic after it was
/// written), so a few are plenty and the bound keeps such leftovers from piling up.
const MOST_WAITING: usize = 8;

impl WrittenArrays {
    /// Keeps `array` (the JSON text of an array) for the answer whose `resultId` is
    /// `result_id` and whose `data` is `[]`.
    pub fn hold(&self, result_id: &str, array: Vec<u8>) {
        let mut waiting = self.lock();
        if waiting.len() == MOST_WAITING {
            waiting.pop_front();
        }
        waiting.push_back((result_id.to_string(), array));
    }

    /// `message` with its empty `data` array replaced by the one held for its `resultId`;
    /// any other message as it is.
    pub fn fill(&self, message: Vec<u8>) -> Vec<u8> {
        let mut waiting = self.lock();
        if waiting.is_empty() {
            return message;
        }
        let Some(result_id) = result_id_of(&message) else {
            return message;
        };
        let Some(held) = waiting
            .iter()
            .position(|(id, _)| id.as_bytes() == result_id)
        else {
            return message;
        };
        let Some(empty) = memmem::find(&message, EMPTY_DATA) else {
            return message;
        };
        let Some((_, array)) = waiting.remove(held) else {
            return message;
        };
        drop(waiting);
        let array_at = empty + EMPTY_DATA.len() - 2;
        let mut filled = Vec::with_capacity(message.len() + array.len());
        filled.extend_from_slice(&message[..array_at]);
        filled.extend_from_slice(&array);
        filled.extend_from_slice(&message[array_at + 2..]);
        filled
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<(String, Vec<u8>)>> {
        // A panic elsewhere while the lock was held leaves the queue whole.
        self.waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

const EMPTY_DATA: &[u8] = b"\"data\":[]";
const RESULT_ID: &[u8] = b"\"resultId\":\"";

/// The text of the message's `resultId` (ours are digits: no escapes to read).
fn result_id_of(message: &[u8]) -> Option<&[u8]> {
    let start = memmem::find(message, RESULT_ID)? + RESULT_ID.len();
    let length = memchr::memchr(b'"', &message[start..])?;
    Some(&message[start..start + length])
}

/// A JSON array of numbers, written as they come.
pub struct JsonArray {
    text: Vec<u8>,
}

impl JsonArray {
    /// Room for about `count` numbers.
    pub fn with_capacity(count: usize) -> JsonArray {
        // Most numbers of semantic tokens have one or two digits.
        let mut text = Vec::with_capacity(2 + count * 3);
        text.push(b'[');
        JsonArray { text }
    }

    #[inline]
    pub fn push(&mut self, number: u32) {
        push_decimal(&mut self.text, number);
        self.text.push(b',');
    }

    pub fn finish(mut self) -> Vec<u8> {
        // The comma after the last number closes the array; `[` alone opens an empty one.
        match self.text.last_mut() {
            Some(last @ b',') => *last = b']',
            _ => self.text.push(b']'),
        }
        self.text
    }
}

#[inline]
fn push_decimal(text: &mut Vec<u8>, number: u32) {
    // Token numbers are mostly one or two digits: those without the general loop.
    if number < 10 {
        text.push(b'0' + number as u8);
        return;
    }
    if number < 100 {
        text.extend_from_slice(&[b'0' + (number / 10) as u8, b'0' + (number % 10) as u8]);
        return;
    }
    let mut digits = [0u8; 10];
    let mut first = digits.len();
    let mut rest = number;
    loop {
        first -= 1;
        digits[first] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    text.extend_from_slice(&digits[first..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json_array(numbers: &[u32]) -> Vec<u8> {
        let mut array = JsonArray::with_capacity(numbers.len());
        for &number in numbers {
            array.push(number);
        }
        array.finish()
    }

    #[test]
    fn numbers_are_written_as_json_reads_them() {
        let numbers = [
            0,
            1,
            9,
            10,
            99,
            100,
            65_535,
            1_000_000,
            u32::MAX - 1,
            u32::MAX,
        ];
        let text = json_array(&numbers);
        let read: Vec<u32> = serde_json::from_slice(&text).unwrap();
        assert_eq!(read, numbers);
        assert_eq!(json_array(&[]), b"[]");
        assert_eq!(json_array(&[7]), b"[7]");
    }

    #[test]
    fn the_held_array_fills_the_answer_with_its_result_id() {
        let arrays = WrittenArrays::default();
        arrays.hold("12", b"[1,2,3]".to_vec());
        arrays.hold("13", b"[4]".to_vec());
        let other = br#"{"jsonrpc":"2.0","result":{"data":[],"resultId":"14"},"id":3}"#.to_vec();
        assert_eq!(
            arrays.fill(other.clone()),
            other,
            "an id nothing is held for"
        );
        let no_id = br#"{"jsonrpc":"2.0","result":{"data":[]},"id":4}"#.to_vec();
        assert_eq!(arrays.fill(no_id.clone()), no_id);
        let answer = br#"{"jsonrpc":"2.0","result":{"data":[],"resultId":"13"},"id":5}"#;
        assert_eq!(
            arrays.fill(answer.to_vec()),
            br#"{"jsonrpc":"2.0","result":{"data":[4],"resultId":"13"},"id":5}"#
        );
        // Claimed once: the same answer again is left alone.
        assert_eq!(arrays.fill(answer.to_vec()), answer);
        // An edit of a delta carries the array too, whatever the order of the keys.
        let delta =
            br#"{"jsonrpc":"2.0","result":{"resultId":"12","edits":[{"data":[],"deleteCount":5,"start":0}]},"id":6}"#;
        let filled: serde_json::Value =
            serde_json::from_slice(&arrays.fill(delta.to_vec())).unwrap();
        assert_eq!(
            filled["result"]["edits"][0]["data"],
            serde_json::json!([1, 2, 3])
        );
        assert_eq!(filled["result"]["edits"][0]["deleteCount"], 5);
        assert!(arrays.lock().is_empty());
    }

    #[test]
    fn arrays_left_unclaimed_do_not_pile_up() {
        let arrays = WrittenArrays::default();
        for id in 0..100 {
            arrays.hold(&id.to_string(), b"[1]".to_vec());
        }
        assert_eq!(arrays.lock().len(), MOST_WAITING);
        let newest = br#"{"result":{"data":[],"resultId":"99"}}"#;
        assert_eq!(
            arrays.fill(newest.to_vec()),
            br#"{"result":{"data":[1],"resultId":"99"}}"#
        );
        let oldest = br#"{"result":{"data":[],"resultId":"0"}}"#;
        assert_eq!(arrays.fill(oldest.to_vec()), oldest);
    }
}
