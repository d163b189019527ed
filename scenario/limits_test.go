package scenario

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBillionLaughs checks that nested aliases cannot make Decode expand a
// small file into more values than memory holds.
func TestBillionLaughs(t *testing.T) {
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	doc, err := Parse("", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var v map[string]any
	errs := errorStrings(t, doc.Decode(&v))
	want := fmt.Sprintf("aliases and merge keys expand to more than %d values", maxAliasValues)
	if len(errs) != 1 || !strings.HasSuffix(errs[0], want) {
		t.Errorf("Decode errors = %q; want one ending %q", errs, want)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Decode took %v", d)
	}
}

// TestMergeChain checks that a long chain of merges, each merging the one
// before twice, costs no more than the mappings in it.
func TestMergeChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("m0: &m0 {a: 1}\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {<<: [*m%d, *m%d], k%d: %d}\n", i, i, i-1, i-1, i, i)
	}
	doc, err := Parse("", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]map[string]int
	done := make(chan error, 1)
	go func() { done <- doc.Decode(&v) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Decode of a merge chain did not finish")
	}
	if got := len(v["m60"]); got != 61 {
		t.Errorf("m60 has %d keys; want 61", got)
	}
}

// TestMergeLaughs checks that merging one large anchored mapping many times
// counts against the same limit as aliases.
func TestMergeLaughs(t *testing.T) {
	var b strings.Builder
	b.WriteString("b: &b {v: [" + strings.TrimSuffix(strings.Repeat("x, ", 1000), ", ") + "]}\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "m%d: {<<: *b}\n", i)
	}
	doc, err := Parse("", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	errs := errorStrings(t, doc.Decode(&v))
	want := fmt.Sprintf("aliases and merge keys expand to more than %d values", maxAliasValues)
	if len(errs) != 1 || !strings.HasSuffix(errs[0], want) {
		t.Errorf("Decode errors = %q; want one ending %q", errs, want)
	}
}
