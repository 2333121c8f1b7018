package jsonscan

import (
	"strings"
	"testing"
)

// plainWordsByByte is PlainWords one byte at a time: the reference.
func plainWordsByByte(s string, ascii bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' || c == '\\' || c < 0x20 || ascii && c >= 0x80 {
			return i &^ 7
		}
	}
	return len(s) &^ 7
}

// TestPlainWords checks where the word scan stops, for each byte class in
// each position of a word.
func TestPlainWords(t *testing.T) {
	for _, tc := range []struct {
		reason string
		s      string
		ascii  bool
		want   int
	}{
		{"an empty string has no words", "", false, 0},
		{"a short tail is left to the caller", "abcdefg", false, 0},
		{"plain words are skipped whole", "abcdefgh12345678xyz", false, 16},
		{"a quote stops its word", "abcdefgh123\"5678", false, 8},
		{"a backslash stops its word", "abcdefgh1234567\\", false, 8},
		{"a control byte stops its word", "\x1fbcdefgh", false, 0},
		{"a space is plain", "        ", false, 8},
		{"DEL is plain", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f", false, 8},
		{"UTF-8 is plain for a body scan", "ééééabcdefgh", false, 16},
		{"UTF-8 stops the word when ascii is asked", "abcdefgh1234567é", true, 8},
		{"0x80 and above next to a quote", "\xa2\xdc\xa2\xdc\"abc", false, 0},
	} {
		if got := PlainWords(tc.s, tc.ascii); got != tc.want {
			t.Errorf("%s: PlainWords(%q, %v) = %d, want %d", tc.reason, tc.s, tc.ascii, got, tc.want)
		}
		if got := PlainWords([]byte(tc.s), tc.ascii); got != tc.want {
			t.Errorf("%s: PlainWords([]byte(%q), %v) = %d, want %d", tc.reason, tc.s, tc.ascii, got, tc.want)
		}
	}
	// Every byte value in every position of a word.
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			s := strings.Repeat("a", 8+pos) + string(rune(0)) + strings.Repeat("b", 15-pos)
			s = s[:8+pos] + string([]byte{byte(c)}) + s[9+pos:]
			for _, ascii := range []bool{false, true} {
				if got, want := PlainWords(s, ascii), plainWordsByByte(s, ascii); got != want {
					t.Fatalf("byte %#x at %d (ascii %v): PlainWords = %d, want %d", c, 8+pos, ascii, got, want)
				}
			}
		}
	}
}

// FuzzPlainWords checks the word scan against the byte-by-byte reference.
func FuzzPlainWords(f *testing.F) {
	f.Add("abcdefgh\"", false)
	f.Add("abcdefghé", true)
	f.Fuzz(func(t *testing.T, s string, ascii bool) {
		if got, want := PlainWords(s, ascii), plainWordsByByte(s, ascii); got != want {
			t.Fatalf("PlainWords(%q, %v) = %d, want %d", s, ascii, got, want)
		}
	})
}
