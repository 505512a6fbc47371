package embed

import "math"

// Cosine returns the cosine similarity of a and b, or 0 if their lengths
// differ or either is a zero vector.
func Cosine(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	na, nb := dot(a, a), dot(b, b)
	if na == 0 || nb == 0 {
		return 0
	}
	return float32(float64(dot(a, b)) / math.Sqrt(float64(na)*float64(nb)))
}

// Normalize scales v in place to unit L2 length. A zero vector stays zero.
func Normalize(v []float32) {
	n := dot(v, v)
	if n == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(float64(n)))
	for i := range v {
		v[i] *= inv
	}
}

func finite(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

// dot returns the inner product of a and b; b must be at least as long as a.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
