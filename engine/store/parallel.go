package store

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// chunk is how many messages one worker of [forEach] takes at a time.
const chunk = 16

// forEach calls fn on consecutive ranges [lo, hi) that cover [0, n),
// spread over the processors; fn returns the index its error is about.
// The error returned is the one of the lowest index: every range below it
// has run to its end, so which error is seen does not depend on timing.
// Small inputs run on the calling goroutine.
func forEach(n int, fn func(lo, hi int) (int, error)) error {
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	if workers <= 1 {
		_, err := fn(0, n)
		return err
	}
	var (
		next    atomic.Int64
		mu      sync.Mutex
		errAt   = n
		firstEr error
		wg      sync.WaitGroup
	)
	failedBefore := func(lo int) bool {
		mu.Lock()
		defer mu.Unlock()
		return errAt < lo
	}
	for range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n || failedBefore(lo) {
					return
				}
				at, err := fn(lo, min(lo+chunk, n))
				if err != nil {
					mu.Lock()
					if at < errAt {
						errAt, firstEr = at, err
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return firstEr
}
