// Times Go's compress/zlib at level 6 (the reference's PNG encoder) on the
// filtered rows of pages `pixel render` wrote, and checks that Go's stream
// is byte-identical to ours. Run by bench/pixel_vs_go.sh.
package main

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"os"
	"time"
)

func main() {
	var total time.Duration
	raw, same := 0, 0
	pages := os.Args[1:]
	for _, page := range pages {
		rows, err := os.ReadFile(page + ".raw")
		if err != nil {
			panic(err)
		}
		ours, err := os.ReadFile(page + ".zlib")
		if err != nil {
			panic(err)
		}
		raw += len(rows)
		var buf bytes.Buffer
		start := time.Now()
		w, _ := zlib.NewWriterLevel(&buf, 6)
		w.Write(rows)
		w.Close()
		total += time.Since(start)
		if bytes.Equal(buf.Bytes(), ours) {
			same++
		}
	}
	fmt.Printf("go zlib level 6: %d pages, %.1f MB of filtered rows, %.2f s, %d of %d streams identical to ours\n",
		len(pages), float64(raw)/1e6, total.Seconds(), same, len(pages))
}
