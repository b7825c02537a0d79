//! A RON text's layout, for writing a level back the way its author wrote it: where each
//! field of a struct and each element of a list lies, with the comments before it and the one
//! after it on its line. Only reads; a text it cannot follow gives `None` (the level is then
//! written out whole).

/// One field of a struct, or one element of a list, as byte offsets into the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The field's name (`None` for a list's element).
    pub key: Option<String>,
    /// Where the lines before it begin (right after the previous item's line).
    pub lead: usize,
    /// Where the key (or the element) begins.
    pub start: usize,
    /// Where its value begins and ends.
    pub value: (usize, usize),
    /// A `//` comment after it on its line.
    pub comment: Option<(usize, usize)>,
    /// Where its line ends (after the newline, when there is one).
    pub tail: usize,
}

/// The items inside the bracket that opens at `open`, and where its closing bracket is.
pub fn items(text: &str, open: usize) -> Option<(Vec<Item>, usize)> {
    let b = text.as_bytes();
    let close_of = match b.get(open)? {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        _ => return None,
    };
    let mut out = Vec::new();
    let mut i = open + 1;
    loop {
        let lead = i;
        let start = skip_blank(b, i)?;
        if *b.get(start)? == close_of {
            return Some((out, start));
        }
        let mut key = None;
        let mut v = start;
        if close_of == b')' {
            // `name: value` (a struct) or a bare value (a tuple).
            let id_end = ident_end(b, start);
            if id_end > start {
                let after = skip_blank(b, id_end)?;
                if b.get(after) == Some(&b':') {
                    key = Some(text[start..id_end].to_string());
                    v = skip_blank(b, after + 1)?;
                }
            }
        } else if close_of == b'}' {
            let k_end = value_end(b, start)?;
            let after = skip_blank(b, k_end)?;
            if b.get(after) != Some(&b':') {
                return None;
            }
            v = skip_blank(b, after + 1)?;
        }
        let v_end = value_end(b, v)?;
        // After the value: spaces, a comma, spaces, a line comment, the newline.
        let mut j = skip_spaces(b, v_end);
        let mut comma = false;
        if b.get(j) == Some(&b',') {
            comma = true;
            j = skip_spaces(b, j + 1);
        }
        let mut comment = None;
        if b.get(j..j + 2) == Some(b"//") {
            let end = text[j..].find('\n').map_or(text.len(), |n| j + n);
            comment = Some((j, end));
            j = end;
        }
        if b.get(j) == Some(&b'\r') {
            j += 1;
        }
        if b.get(j) == Some(&b'\n') {
            j += 1;
        } else if comment.is_none() {
            // Several items on one line: the next one starts right here.
            j = if comma { skip_spaces(b, v_end + 1) } else { v_end };
        }
        out.push(Item { key, lead, start, value: (v, v_end), comment, tail: j });
        i = j;
        if !comma {
            let end = skip_blank(b, i)?;
            return if *b.get(end)? == close_of { Some((out, end)) } else { None };
        }
    }
}

/// Where the level's `Level(` (or bare `(`) opens, after leading comments and attributes.
pub fn top_open(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = skip_blank(b, 0)?;
    while b.get(i..i + 2) == Some(b"#!") {
        i = text[i..].find('\n').map(|n| i + n)?;
        i = skip_blank(b, i)?;
    }
    let e = ident_end(b, i);
    let i = skip_blank(b, e)?;
    (b.get(i) == Some(&b'(')).then_some(i)
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    i
}

fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

/// Past whitespace and comments; `None` at an unclosed block comment.
fn skip_blank(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b.get(i..i + 2) == Some(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b.get(i..i + 2) == Some(b"/*") {
            let mut depth = 1;
            i += 2;
            while depth > 0 {
                match b.get(i..i + 2)? {
                    b"*/" => {
                        depth -= 1;
                        i += 2;
                    }
                    b"/*" => {
                        depth += 1;
                        i += 2;
                    }
                    _ => i += 1,
                }
            }
        } else {
            return Some(i);
        }
    }
}

/// The end of the value starting at `i`: a string, a character, a bracketed value (with an
/// optional name before it) or a plain word or number.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => string_end(b, i),
        b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) => raw_string_end(b, i),
        b'\'' => {
            let mut j = i + 1;
            if b.get(j) == Some(&b'\\') {
                j += 1;
            }
            // One UTF-8 character.
            j += 1;
            while j < b.len() && (b[j] & 0xC0) == 0x80 {
                j += 1;
            }
            (b.get(j) == Some(&b'\'')).then_some(j + 1)
        }
        b'(' | b'[' | b'{' => bracket_end(b, i),
        _ => {
            let mut j = i;
            while j < b.len()
                && !matches!(b[j], b',' | b')' | b']' | b'}' | b'(' | b'[' | b'{' | b':')
                && !b[j].is_ascii_whitespace()
                && b.get(j..j + 2) != Some(b"//")
            {
                j += 1;
            }
            if j == i {
                return None;
            }
            // `Name(…)`: a named struct, tuple or enum variant.
            match b.get(j) {
                Some(b'(') => bracket_end(b, j),
                _ => Some(j),
            }
        }
    }
}

fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        match *b.get(j)? {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
}

fn raw_string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    let mut hashes = 0;
    while b.get(j) == Some(&b'#') {
        hashes += 1;
        j += 1;
    }
    if b.get(j) != Some(&b'"') {
        return None;
    }
    j += 1;
    loop {
        if *b.get(j)? == b'"' && b.get(j + 1..j + 1 + hashes).is_some_and(|h| h.iter().all(|c| *c == b'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
}

fn bracket_end(b: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = i;
    loop {
        match *b.get(j)? {
            b'(' | b'[' | b'{' => {
                depth += 1;
                j += 1;
            }
            b')' | b']' | b'}' => {
                depth -= 1;
                j += 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            b'"' => j = string_end(b, j)?,
            b'r' if matches!(b.get(j + 1), Some(b'"' | b'#')) && !b.get(j.wrapping_sub(1)).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') => {
                j = raw_string_end(b, j)?
            }
            b'\'' => j = value_end(b, j)?,
            b'/' if matches!(b.get(j + 1), Some(b'/' | b'*')) => j = skip_blank(b, j)?,
            _ => j += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_elements_are_found_with_their_comments() {
        let t = "// head\nLevel(\n    // the name\n    name: \"a, b\", // trailing\n    floors: [[\n        \"#.#\", // y 0\n    ]],\n    sides: [(id: \"x\"), (id: \"y\")],\n)\n";
        let open = top_open(t).unwrap();
        let (items, close) = items(t, open).unwrap();
        assert_eq!(&t[close..close + 1], ")");
        let keys: Vec<_> = items.iter().map(|i| i.key.clone().unwrap()).collect();
        assert_eq!(keys, ["name", "floors", "sides"]);
        assert_eq!(&t[items[0].lead..items[0].start], "\n    // the name\n    ");
        assert_eq!(&t[items[0].value.0..items[0].value.1], "\"a, b\"");
        let (c0, c1) = items[0].comment.unwrap();
        assert_eq!(&t[c0..c1], "// trailing");
        let (fl, _) = super::items(t, items[1].value.0).unwrap();
        assert_eq!(fl.len(), 1);
        let (rows, _) = super::items(t, fl[0].value.0).unwrap();
        assert_eq!(&t[rows[0].value.0..rows[0].value.1], "\"#.#\"");
        let (sides, _) = super::items(t, items[2].value.0).unwrap();
        assert_eq!(sides.len(), 2);
        assert_eq!(&t[sides[1].value.0..sides[1].value.1], "(id: \"y\")");
    }

    #[test]
    fn text_it_cannot_follow_is_none_not_a_panic() {
        for t in ["Level(", "Level(name: \"x", "Level(a: [1, 2)", "(", "/* x", "Level(x: 'a"] {
            let open = top_open(t);
            assert!(open.is_none() || items(t, open.unwrap()).is_none(), "{t}");
        }
    }
}
