// Command refcode is the differential oracle for the Rust port of gofmt
// (src/gofmt): it runs Go's own go/parser, go/printer and go/format the
// way the code compressor is specified (spec/code.md §1, §3) and writes
// one result file per input, for tests/integration/gofmt.rs to compare.
//
// Usage: refcode MODE OUTDIR < FILE-LIST (one path per line)
//
//	MODE code     parse without comments, empty every function
//	              declaration body that has statements, print, gofmt
//	MODE reprint  the same without emptying any body
//	MODE perturb  re-space the file's tokens at random (seeded by N):
//	              more or fewer blank lines, other indentation, extra
//	              spaces between tokens, CRLF line ends for every third
//	              file; the new source goes to OUTDIR/N.src and its
//	              `code` result to OUTDIR/N
//
// Each result goes to OUTDIR/N (N = the file's index): the formatted
// bytes, or a first line "DECLINE syntax" / "DECLINE empty".
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
)

func run(mode string, src []byte) []byte {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return []byte("DECLINE syntax\n")
	}
	if mode == "code" {
		emptied := false
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && len(fd.Body.List) > 0 {
				fd.Body.List = nil
				emptied = true
			}
		}
		if !emptied {
			return []byte("DECLINE empty\n")
		}
	}
	var buf bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&buf, fset, file); err != nil {
		return []byte("DECLINE print\n")
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return buf.Bytes()
	}
	return out
}

// perturb re-emits src's tokens with other whitespace. Line breaks stay
// where they were (so automatic semicolons do not move), their number
// changes; tokens on one line keep their order and get 0–3 more spaces.
func perturb(src []byte, seed int64) []byte {
	r := rand.New(rand.NewSource(seed))
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	var out bytes.Buffer
	prevLine, prevEnd := 1, 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		text := lit
		if text == "" || tok.IsOperator() || tok.IsKeyword() {
			text = tok.String()
		}
		off := file.Offset(pos)
		line := file.Line(pos)
		switch {
		case line > prevLine:
			n := 1 + r.Intn(3)
			if line-prevLine == 1 && r.Intn(2) == 0 {
				n = 1
			}
			for i := 0; i < n; i++ {
				if r.Intn(8) == 0 {
					out.WriteString(" \t")
				}
				out.WriteByte('\n')
			}
			out.WriteString([]string{"", "\t", "  ", "\t\t\t"}[r.Intn(4)])
		case off > prevEnd:
			out.WriteString([]string{" ", "  ", "\t", "   "}[r.Intn(4)])
		case out.Len() > 0 && r.Intn(6) == 0:
			out.WriteByte(' ')
		}
		out.WriteString(text)
		prevEnd = min(off+len(text), file.Size())
		prevLine = file.Line(file.Pos(prevEnd))
	}
	out.WriteByte('\n')
	if seed%3 == 0 {
		return bytes.ReplaceAll(out.Bytes(), []byte("\n"), []byte("\r\n"))
	}
	return out.Bytes()
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: refcode MODE OUTDIR < FILE-LIST")
		os.Exit(2)
	}
	mode, dir := os.Args[1], os.Args[2]
	in := bufio.NewScanner(os.Stdin)
	for i := 0; in.Scan(); i++ {
		name := in.Text()
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		how := mode
		if mode == "perturb" {
			src = perturb(src, int64(i))
			if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)+".src"), src, 0o644); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			how = "code"
		}
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)), run(how, src), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
