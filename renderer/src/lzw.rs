//! GIF's LZW compression of 8-bit palette indices (GIF89a, appendix F: variable-length
//! codes of 9 to 12 bits, least significant bit first, a clear code when the table is
//! full), written for the replay's frames: the code table is a small open-addressing
//! hash table of 32 KB (each entry the string's prefix code, its last index and its own
//! code in one `u32`), which stays in the processor's first-level cache. The result goes
//! to [`gif::Encoder::write_lzw_pre_encoded_frame`].

/// The minimum code size for 8-bit indices.
const MIN_CODE_SIZE: u8 = 8;
const CLEAR: u16 = 1 << MIN_CODE_SIZE;
const END: u16 = CLEAR + 1;
const FIRST_FREE: u16 = CLEAR + 2;
/// GIF's largest code is 12 bits.
const MAX_CODES: u16 = 4096;

/// Slots of the hash table: twice the codes, so probes stay short.
const SLOTS: usize = 8192;

/// An LZW encoder; reusing one keeps its table's memory.
pub(crate) struct Lzw {
    /// Entries `(prefix << 8 | index) << 12 | code` of the strings `prefix + index`;
    /// 0 is an empty slot (no string has code 0).
    table: Vec<u32>,
}

/// Appends codes to a byte buffer, least significant bit first.
struct Bits<'a> {
    out: &'a mut Vec<u8>,
    acc: u32,
    n: u32,
}

impl Bits<'_> {
    #[inline]
    fn put(&mut self, code: u16, bits: u8) {
        self.acc |= u32::from(code) << self.n;
        self.n += u32::from(bits);
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    fn flush(&mut self) {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.acc = 0;
        self.n = 0;
    }
}

impl Lzw {
    /// An encoder with an empty table.
    pub(crate) fn new() -> Lzw {
        Lzw {
            table: vec![0; SLOTS],
        }
    }

    fn clear(&mut self) {
        self.table.fill(0);
    }

    /// The slot of string `key` (`prefix << 8 | index`): its entry, or the empty slot
    /// where it goes.
    #[inline]
    fn slot(&self, key: u32) -> usize {
        let mut i = (key.wrapping_mul(0x9E37_79B1) >> 19) as usize;
        loop {
            let e = self.table[i];
            if e == 0 || e >> 12 == key {
                return i;
            }
            i = (i + 1) & (SLOTS - 1);
        }
    }

    /// Appends the image data of a GIF frame holding `data` (palette indices) to `out`:
    /// the minimum code size byte, then the LZW codes (not yet cut into sub-blocks).
    pub(crate) fn encode(&mut self, data: &[u8], out: &mut Vec<u8>) {
        out.push(MIN_CODE_SIZE);
        let mut bits = Bits { out, acc: 0, n: 0 };
        let mut size = MIN_CODE_SIZE + 1;
        bits.put(CLEAR, size);
        let Some((&first, rest)) = data.split_first() else {
            bits.put(END, size);
            bits.flush();
            return;
        };
        let mut next = FIRST_FREE;
        let mut prefix = u16::from(first);
        for &b in rest {
            let key = u32::from(prefix) << 8 | u32::from(b);
            let at = self.slot(key);
            let e = self.table[at];
            if e != 0 {
                prefix = (e & 0xfff) as u16;
                continue;
            }
            bits.put(prefix, size);
            // The decoder widens its codes once its next free code needs one more bit.
            if next >= 1 << size && size < 12 {
                size += 1;
            }
            if next < MAX_CODES {
                self.table[at] = key << 12 | u32::from(next);
                next += 1;
            } else {
                bits.put(CLEAR, size);
                self.clear();
                size = MIN_CODE_SIZE + 1;
                next = FIRST_FREE;
            }
            prefix = u16::from(b);
        }
        bits.put(prefix, size);
        if next >= 1 << size && size < 12 {
            size += 1;
        }
        bits.put(END, size);
        bits.flush();
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    /// `data` as a one-frame GIF of `w` x `h` pixels through [`Lzw`], decoded again
    /// with the `gif` crate.
    fn round_trip(lzw: &mut Lzw, data: &[u8], w: u16, h: u16) -> Vec<u8> {
        let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
        let mut out = Vec::new();
        {
            let mut enc = gif::Encoder::new(&mut out, w, h, &palette).unwrap();
            let mut buffer = Vec::new();
            lzw.encode(data, &mut buffer);
            let frame = gif::Frame {
                width: w,
                height: h,
                buffer: Cow::Owned(buffer),
                ..gif::Frame::default()
            };
            enc.write_lzw_pre_encoded_frame(&frame).unwrap();
        }
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(out.as_slice()).unwrap();
        decoder.read_next_frame().unwrap().unwrap().buffer.to_vec()
    }

    #[test]
    fn decodes_to_the_same_indices() {
        // Runs, noise (which fills the table and clears it several times) and every
        // index value.
        let mut data = vec![255u8; 5000];
        let mut x = 0x2545_f491_u32;
        for _ in 0..60_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            data.push((x % 7) as u8 * 36);
        }
        data.extend(0..=255u8);
        data.extend(std::iter::repeat_n(3u8, 3000));
        let (w, h) = (256u16, (data.len() / 256) as u16);
        data.truncate(usize::from(w) * usize::from(h));
        let mut lzw = Lzw::new();
        assert_eq!(round_trip(&mut lzw, &data, w, h), data);
        // The encoder is reused: its table starts empty again.
        assert_eq!(round_trip(&mut lzw, &data[..512], 16, 32), &data[..512]);
        assert_eq!(round_trip(&mut lzw, &[7], 1, 1), vec![7]);
    }
}
