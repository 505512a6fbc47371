package validate

// BatchSimilarity is the cosine at which Batch puts two entries in one
// cluster.
const BatchSimilarity = 0.85

// Batch clusters incoming entries by embedding for the seed's batch
// validation: the caller validates one or two representatives per cluster
// fully (the first indices of each) and propagates their verdicts, then
// checks Contradictions between clusters. Clustering is greedy leader
// clustering in input order: each unassigned candidate starts a cluster and
// takes every later unassigned candidate within BatchSimilarity of it, so
// the result depends only on the input order, and every member is close to
// its cluster's first (representative) entry. A candidate without a usable
// embedding is a cluster of its own. Clusters are ordered by their first
// index, indices ascending.
func Batch(cands []Candidate) [][]int {
	unit := make([][]float32, len(cands))
	for i, c := range cands {
		unit[i] = normalized(c.Embedding)
	}
	done := make([]bool, len(cands))
	var out [][]int
	for i := range cands {
		if done[i] {
			continue
		}
		done[i] = true
		group := []int{i}
		if unit[i] != nil {
			for j := i + 1; j < len(cands); j++ {
				if !done[j] && len(unit[j]) == len(unit[i]) && float64(dot(unit[i], unit[j])) >= BatchSimilarity {
					done[j] = true
					group = append(group, j)
				}
			}
		}
		out = append(out, group)
	}
	return out
}
