package main

import (
	"context"
	"fmt"
	"time"

	"github.com/replaycheck/replaycheck/gate"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/providers"
)

func main() {
	f, _ := matrix.Load("matrix.yaml")
	list, _ := providers.LoadDir("providers")
	p := providers.ByName(list)
	t := time.Now()
	res, err := gate.Evaluate(context.Background(), f, f, p, "cassettes")
	fmt.Println("evaluate", time.Since(t), err, len(res.Head.Cells))
	t = time.Now()
	mutate.Cover(f)
	fmt.Println("cover", time.Since(t))
	t = time.Now()
	mutate.Unchecked(f, f, p)
	fmt.Println("unchecked", time.Since(t))
}
