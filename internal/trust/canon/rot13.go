package canon

import "math"

// english is the frequency of each letter a-z in English text (per cent;
// the standard table of letter frequencies in large English corpora).
var english = [26]float64{8.167, 1.492, 2.782, 4.253, 12.702, 2.228, 2.015, 6.094, 6.966, 0.153, 0.772, 4.025,
	2.406, 6.749, 7.507, 1.929, 0.095, 5.987, 6.327, 9.056, 2.758, 0.978, 2.360, 0.150, 1.974, 0.074}

var englishLog2 = func() (l [26]float64) {
	for i, p := range english {
		l[i] = math.Log2(p / 100)
	}
	return l
}()

// The rot13 criterion. English text scores about -4.2 bits per letter
// under the letter frequencies (their entropy); rot13 of English about
// -5.5, since it swaps e, t, a for r, g, n. A segment is decoded when its
// rot13 scores at least rot13Gain bits per letter better than it and
// within rot13Near of English's entropy: clean English always loses by
// rot13, so it is never rewritten, and text in another language or random
// letters seldom gains that much and reads as English.
const (
	rot13Gain = 0.5
	rot13Near = 0.45
)

// englishEntropy is -Σ p log2 p over the letter frequencies.
var englishEntropy = func() float64 {
	var h float64
	for i, p := range english {
		h -= p / 100 * englishLog2[i]
	}
	return h
}()

// rot13 returns seg rotated by 13 letters when that reads as English by
// the criterion above, and whether it does.
func rot13(seg string) (string, bool) {
	var n int
	var ll, rot float64
	for i := 0; i < len(seg); i++ {
		c := seg[i] | 0x20
		if c < 'a' || c > 'z' {
			continue
		}
		n++
		ll += englishLog2[c-'a']
		rot += englishLog2[(c-'a'+13)%26]
	}
	if n < minLetters {
		return "", false
	}
	ll, rot = ll/float64(n), rot/float64(n)
	if rot-ll < rot13Gain || rot < -englishEntropy-rot13Near {
		return "", false
	}
	b := []byte(seg)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b), true
}
