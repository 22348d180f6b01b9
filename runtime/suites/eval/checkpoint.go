package eval

import (
	"strconv"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
)

// Checkpoint is a program's completed inner call, kept in the session (CheckpointSlice) by the inner
// call's own transaction: the commit of the call's changes and of its checkpoint is one write. A program
// run again (after one of its calls was held and decided, or by a durable engine after its worker died)
// finds the call there and answers it from the checkpoint without dispatching it.
type Checkpoint struct {
	// Program is the program's id; Ordinal the call's place in it, from 0.
	Program string
	Ordinal int
	// Tool and Args (a digest of the arguments as the program sent them) identify the call: a run that
	// sends another call at this place has diverged, and gets no more checkpoints.
	Tool, Args string
	// Output is the outcome's text; Value the result value's JSON (nil when it had none).
	Output string
	Value  []byte
}

// resultValue is the JSON the program receives for the call.
func (c Checkpoint) resultValue() []byte {
	if c.Value != nil {
		return c.Value
	}
	return textValue(c.Output)
}

// KeptPrograms is how many programs of a session keep their checkpoints: a program's are dropped when
// the KeptPrograms-th later program records one. A program's checkpoints must outlive its end (a durable
// engine's worker may die after the program ended and before the engine checkpointed the program call,
// and the program then runs again), and a session runs one program at a time per conversation.
const KeptPrograms = 4

// CheckpointSlice holds the checkpoints of a session's latest programs. Give it to the session store of
// sessions that run programs (session.NewMemoryStore(eval.CheckpointSlice, ...), pgstore.New(ctx, pool,
// eval.CheckpointSlice, ...)), so that a program run again after a hold or a crash finds them.
var CheckpointSlice = session.NewSlice[Checkpoint]("eval.program_checkpoints", session.Rollback, session.WithCodec(session.Codec[Checkpoint]{
	Encode: encodeCheckpoint,
	Decode: decodeCheckpoint,
}))

// recordCheckpoint adds cp to s, dropping the checkpoints of programs older than the KeptPrograms latest.
func recordCheckpoint(s *session.Session, cp Checkpoint) {
	session.Replace(s, CheckpointSlice, func(items []Checkpoint) []Checkpoint {
		// The programs in order of their latest checkpoint, newest last.
		var order []string
		for _, it := range items {
			for i, p := range order {
				if p == it.Program {
					order = append(order[:i], order[i+1:]...)
					break
				}
			}
			order = append(order, it.Program)
		}
		keep := map[string]bool{cp.Program: true}
		for i := len(order) - 1; i >= 0 && len(keep) < KeptPrograms; i-- {
			keep[order[i]] = true
		}
		out := items[:0]
		for _, it := range items {
			if keep[it.Program] && !(it.Program == cp.Program && it.Ordinal == cp.Ordinal) {
				out = append(out, it)
			}
		}
		return append(out, cp)
	})
}

func encodeCheckpoint(dst []byte, c *Checkpoint) []byte {
	dst = append(dst, `{"program":`...)
	dst = strictjson.AppendString(dst, c.Program)
	dst = append(dst, `,"ordinal":`...)
	dst = strconv.AppendInt(dst, int64(c.Ordinal), 10)
	dst = append(dst, `,"tool":`...)
	dst = strictjson.AppendString(dst, c.Tool)
	dst = append(dst, `,"args":`...)
	dst = strictjson.AppendString(dst, c.Args)
	dst = append(dst, `,"output":`...)
	dst = strictjson.AppendString(dst, c.Output)
	if c.Value != nil {
		dst = append(dst, `,"value":`...)
		dst = append(dst, c.Value...)
	}
	return append(dst, '}')
}

func decodeCheckpoint(data []byte) (Checkpoint, error) {
	var c Checkpoint
	var d strictjson.Decoder
	d.Reset(data, strictjson.Limits{MaxBytes: len(data) + 1, MaxDepth: maxValueDepth + 2})
	if d.ObjectStart() {
		for d.NextKey() {
			switch d.KeyString() {
			case "program":
				c.Program, _ = d.String()
			case "ordinal":
				n, _ := d.Int(0, 1<<31)
				c.Ordinal = int(n)
			case "tool":
				c.Tool, _ = d.String()
			case "args":
				c.Args, _ = d.String()
			case "output":
				c.Output, _ = d.String()
			case "value":
				raw, _ := d.Raw()
				c.Value = append([]byte(nil), raw...)
			default:
				d.Skip()
			}
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil {
		return Checkpoint{}, errs
	}
	return c, nil
}

// appendQuoted appends s as a JSON string.
func appendQuoted(dst []byte, s string) []byte { return strictjson.AppendString(dst, s) }
