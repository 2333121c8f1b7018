package sse_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/replaycheck/replaycheck/engine/sse"
)

func ExampleReader() {
	stream := "event: content_block_delta\r\n" +
		"data: {\"delta\":{\"thinking\":\"hm\"}}\r\n\r\n" +
		": ping\r\n\r\n" +
		"data: [DONE]"
	r := sse.NewReader(strings.NewReader(stream))
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d %q %s\n", ev.Offset, ev.Name, ev.Data)
	}
	// Output:
	// 0 "content_block_delta" {"delta":{"thinking":"hm"}}
	// 75 "" [DONE]
}
