//! What the targets that read whole documents share.

use ppn_ls::model::format::Format;

/// An input's first line names the notation by a file extension (PPN when it names none),
/// so that one corpus covers every notation and seeds are files with a line in front; the
/// notation and the rest of the input.
pub fn notation_and_rest(data: &[u8]) -> (Format, &[u8]) {
    let (extension, rest) = match data.iter().position(|&byte| byte == b'\n') {
        Some(end) => (&data[..end], &data[end + 1..]),
        None => (&data[..0], data),
    };
    let extension = String::from_utf8_lossy(extension).to_ascii_lowercase();
    let format = Format::ALL
        .into_iter()
        .find(|format| format.extensions().contains(&extension.as_str()))
        .unwrap_or(Format::Ppn);
    (format, rest)
}
