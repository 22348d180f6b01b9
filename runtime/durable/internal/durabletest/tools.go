// Package durabletest is the agent the durable engines' tests, crash tests and benchmarks run: two tools
// with state effects in a stored session and an effect outside it (a line in a file, keyed by the call's
// durable idempotency key), one of them held for a person's approval; an OpenAI-compatible fake model
// server on loopback that counts the requests of every turn; and the worker main the crash tests start
// as processes. deposit is idempotent on its arguments within the session, so that with pgledger on the
// session store's pool the ledger's record joins the call's session commit, the durable checkpoint's
// transaction.
package durabletest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"os"
	"strconv"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// Entry is one change a tool made to an account, kept in the session.
//
//wink:state
type Entry struct {
	// Account changed.
	Account string `json:"account"`
	// Cents added (negative: taken).
	Cents int `json:"cents"`
	// Key is the durable idempotency key of the call that made it.
	Key string `json:"key"`
}

// Entries is the session slice of the accounts' changes (STATE, with a codec: the store keeps it).
var Entries = session.NewSlice[Entry]("durabletest.entries", session.Rollback, session.WithCodec(WinkEntryCodec))

// EffectsFile, when set, receives one line per effect made outside the session: "<tool> <key>".
var EffectsFile string

// CrashInHandler, when set, is called by the handlers after their outside effect and before they
// return; the crash tests kill the process there.
var CrashInHandler func(tool string)

// DepositParams are the arguments of deposit.
type DepositParams struct {
	// Account to credit.
	Account string `json:"account" wink:"minLength=1,maxLength=40"`
	// Cents to add.
	Cents int `json:"cents" wink:"min=1,max=1000000"`
}

// Balance is what deposit and transfer return.
type Balance struct {
	// Account changed.
	Account string `json:"account"`
	// Cents is the account's balance now.
	Cents int `json:"cents"`
}

// Deposit credits an account.
//
//wink:tool
//wink:idempotent strategy=params keys=account,cents scope=session
func Deposit(tc *wink.ToolContext, p DepositParams) (wink.ToolResult[Balance], error) {
	return change(tc, "deposit", p.Account, p.Cents)
}

// TransferParams are the arguments of transfer.
type TransferParams struct {
	// From is the account debited.
	From string `json:"from" wink:"minLength=1,maxLength=40"`
	// Cents to move.
	Cents int `json:"cents" wink:"min=1,max=1000000"`
}

// Transfer debits an account (held for a person's approval by the tests' policy).
//
//wink:tool
func Transfer(tc *wink.ToolContext, p TransferParams) (wink.ToolResult[Balance], error) {
	return change(tc, "transfer", p.From, -p.Cents)
}

func change(tc *wink.ToolContext, tool, account string, cents int) (wink.ToolResult[Balance], error) {
	key := durable.IdempotencyKey(tc)
	s := tc.Session()
	session.Append(s, Entries, Entry{Account: account, Cents: cents, Key: key})
	if err := effect(tool + " " + key); err != nil {
		return wink.ToolResult[Balance]{}, err
	}
	if CrashInHandler != nil {
		CrashInHandler(tool)
	}
	total := 0
	for e := range session.Values(s, Entries) {
		if e.Account == account {
			total += e.Cents
		}
	}
	return wink.OK(Balance{Account: account, Cents: total}, "Balance of "+account+": "+strconv.Itoa(total)+" cents."), nil
}

// effect appends line to EffectsFile (an effect outside the session, as a payment API would be).
func effect(line string) error {
	if EffectsFile == "" {
		return nil
	}
	f, err := os.OpenFile(EffectsFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Kill ends the process at once, as kill -9 does (SIGKILL on Unix: no deferred function, no flush runs).
func Kill() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Kill()
	}
	select {}
}
