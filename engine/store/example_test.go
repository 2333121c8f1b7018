package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/store"
)

// Example stores a session, appends the assistant's answer with its
// reasoning, and resumes it from the file in a new Store.
func Example() {
	dir, err := os.MkdirTemp("", "store-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "sessions.db")
	ctx := context.Background()

	st, err := store.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	err = st.Create(ctx, &engine.Session{
		ID:       "demo",
		Messages: []engine.Message{{Role: "user", Content: []byte(`"What is 17 * 23?"`)}},
	})
	if err != nil {
		log.Fatal(err)
	}
	err = st.Append(ctx, "demo", engine.Message{
		Role:             "assistant",
		Content:          []byte(`"391"`),
		ReasoningContent: engine.Str("17 * 23 = 17 * 20 + 17 * 3 = 340 + 51."),
	})
	if err != nil {
		log.Fatal(err)
	}
	st.Close()

	// Resume: open the file again and load the session.
	st, err = store.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	sess, err := st.Load(ctx, "demo")
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range sess.Messages {
		b, _ := m.MarshalJSON()
		fmt.Println(string(b))
	}
	list, _ := st.List(ctx)
	fmt.Printf("%+v\n", list)
	// Output:
	// {"role":"user","content":"What is 17 * 23?"}
	// {"role":"assistant","content":"391","reasoning_content":"17 * 23 = 17 * 20 + 17 * 3 = 340 + 51."}
	// [{ID:demo Turns:1 Messages:2}]
}
