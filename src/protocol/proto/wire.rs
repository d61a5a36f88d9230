//! The protobuf wire format, read from one frame's bytes: varints, fixed-width values,
//! length-delimited payloads and the skipping of unknown fields (legacy groups included).
//!
//! Every read is bounds-checked and returns a problem instead of panicking; nothing here
//! allocates or recurses.

/// Wire types (<https://protobuf.dev/programming-guides/encoding/#structure>).
pub(super) const VARINT: u8 = 0;
pub(super) const I64: u8 = 1;
pub(super) const LEN: u8 = 2;
pub(super) const SGROUP: u8 = 3;
pub(super) const EGROUP: u8 = 4;
pub(super) const I32: u8 = 5;

/// The largest field number protobuf allows (2^29 − 1).
const MAX_FIELD: u64 = (1 << 29) - 1;

/// What is wrong with the bytes (the caller adds where).
pub(super) type Problem = &'static str;

/// A cursor over one message's bytes.
pub(super) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.buf.len()
    }

    fn byte(&mut self) -> Result<u8, Problem> {
        let b = *self.buf.get(self.pos).ok_or("varint runs past the end")?;
        self.pos += 1;
        Ok(b)
    }

    /// A base-128 varint of at most 10 bytes that fits 64 bits.
    pub(super) fn varint(&mut self) -> Result<u64, Problem> {
        let mut value = 0u64;
        for i in 0..10 {
            let b = self.byte()?;
            if i == 9 && b > 1 {
                return Err("varint overflows 64 bits");
            }
            value |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("varint longer than 10 bytes")
    }

    /// A field's tag: its number (1 ..= 2^29 − 1) and wire type (0 ..= 5).
    pub(super) fn tag(&mut self) -> Result<(u32, u8), Problem> {
        let tag = self.varint()?;
        let field = tag >> 3;
        let wire_type = (tag & 7) as u8;
        if field == 0 {
            return Err("field number 0");
        }
        if field > MAX_FIELD {
            return Err("field number out of range");
        }
        if wire_type > I32 {
            return Err("invalid wire type");
        }
        // In range: checked above.
        Ok((field as u32, wire_type))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Problem> {
        let end = self.pos.checked_add(n).ok_or("length past the end")?;
        let bytes = self.buf.get(self.pos..end).ok_or("length past the end")?;
        self.pos = end;
        Ok(bytes)
    }

    /// A length-delimited payload (strings, bytes, embedded messages).
    pub(super) fn len_delimited(&mut self) -> Result<&'a [u8], Problem> {
        let len = self.varint()?;
        if len > u64::from(u32::MAX) {
            return Err("length out of range");
        }
        let len = usize::try_from(len).map_err(|_| "length out of range")?;
        self.take(len)
    }

    /// A little-endian 64-bit value (`double`, `fixed64`).
    pub(super) fn fixed64(&mut self) -> Result<u64, Problem> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// Skip the value of an unknown field whose tag was just read. A group is skipped up to its
    /// matching end tag, iteratively, nested at most `max_groups` deep.
    pub(super) fn skip(
        &mut self,
        field: u32,
        wire_type: u8,
        max_groups: usize,
    ) -> Result<(), Problem> {
        match wire_type {
            VARINT => self.varint().map(drop),
            I64 => self.take(8).map(drop),
            LEN => self.len_delimited().map(drop),
            I32 => self.take(4).map(drop),
            SGROUP => {
                let mut open = vec![field];
                while let Some(&top) = open.last() {
                    if self.at_end() {
                        return Err("group without its end");
                    }
                    let (f, wt) = self.tag()?;
                    match wt {
                        SGROUP => {
                            if open.len() >= max_groups {
                                return Err("groups nested too deep");
                            }
                            open.push(f);
                        }
                        EGROUP => {
                            if f != top {
                                return Err("mismatched end of group");
                            }
                            open.pop();
                        }
                        other => self.skip(f, other, 0)?,
                    }
                }
                Ok(())
            }
            // EGROUP with no group open.
            _ => Err("end of group without its start"),
        }
    }
}
