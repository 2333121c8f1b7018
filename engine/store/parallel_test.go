package store

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
)

// TestForEachLowestError: however the workers are scheduled, forEach
// covers every index once and returns the error of the lowest failing
// index.
func TestForEachLowestError(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(40*chunk)
		bad := map[int]bool{}
		lowest := n
		for range rng.IntN(4) {
			i := rng.IntN(n)
			bad[i] = true
			lowest = min(lowest, i)
		}
		seen := make([]atomic.Int32, n)
		err := forEach(n, func(lo, hi int) (int, error) {
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
				if bad[i] {
					return i, fmt.Errorf("index %d", i)
				}
			}
			return hi, nil
		})
		switch {
		case lowest == n && err != nil:
			t.Fatalf("trial %d: error %v with no failing index", trial, err)
		case lowest < n && (err == nil || err.Error() != fmt.Sprintf("index %d", lowest)):
			t.Fatalf("trial %d: error %v, want index %d", trial, err, lowest)
		}
		for i := range min(lowest+1, n) {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("trial %d: index %d ran %d times (lowest error %d)", trial, i, c, lowest)
			}
		}
	}
}

// TestForEachLaterErrorDoesNotWin: a higher index that fails after a
// lower one has failed does not replace its error.
func TestForEachLaterErrorDoesNotWin(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for range 50 {
		failed := make(chan struct{})
		err := forEach(4*chunk, func(lo, hi int) (int, error) {
			if lo == 0 {
				close(failed)
				return 0, fmt.Errorf("index 0")
			}
			<-failed
			return hi - 1, fmt.Errorf("index %d", hi-1)
		})
		if err == nil || err.Error() != "index 0" {
			t.Fatalf("error %v, want index 0", err)
		}
	}
}
