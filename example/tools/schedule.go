package tools

import (
	"strconv"
	"strings"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Priority orders tasks.
type Priority int

// Priorities, lowest first.
const (
	PriorityLow    Priority = 1
	PriorityNormal Priority = 2
	PriorityHigh   Priority = 3
)

// Recurrence repeats a task.
type Recurrence struct {
	// Every is the interval in days.
	Every int `json:"every" wink:"min=1,max=365"`
	// Until ends the recurrence; open-ended when absent.
	Until *time.Time `json:"until,omitempty"`
}

// ScheduleParams are the arguments of schedule_task.
type ScheduleParams struct {
	// Title names the task.
	Title string `json:"title" wink:"minLength=3,maxLength=80"`
	// At is when the task is due (RFC 3339).
	At time.Time `json:"at"`
	// Priority of the task.
	Priority Priority `json:"priority" wink:"default=2"`
	// Assignee is the e-mail address of the person responsible.
	Assignee *string `json:"assignee,omitempty" wink:"format=email"`
	// Labels attach free-form key/value metadata.
	Labels map[string]string `json:"labels,omitempty"`
	// Repeat makes the task recur.
	Repeat *Recurrence `json:"repeat,omitempty"`
	// Ticket is the tracker reference, like ABC-123.
	Ticket string `json:"ticket,omitempty" wink:"pattern='[A-Z]{2,5}-[0-9]+'"`
}

// Validate checks rules that span fields.
func (p ScheduleParams) Validate() error {
	if p.Repeat != nil && p.Repeat.Until != nil && p.Repeat.Until.Before(p.At) {
		return wink.NewToolError("repeat.until must not be before at")
	}
	return nil
}

// Task is a scheduled task.
type Task struct {
	// ID identifies the task.
	ID string `json:"id"`
	// Title names the task.
	Title string `json:"title"`
	// Due is when the task is due.
	Due time.Time `json:"due"`
	// Priority of the task.
	Priority Priority `json:"priority"`
	// Labels are the task's metadata.
	Labels map[string]string `json:"labels"`
}

// Render shows the task the way a person would write it down.
func (t Task) Render() string {
	var b strings.Builder
	b.WriteString(t.ID + ": " + t.Title + " (due " + t.Due.UTC().Format(time.RFC3339) + ", priority " + strconv.Itoa(int(t.Priority)) + ")")
	return b.String()
}

// ScheduleTask schedules a task for a time.
//
//wink:tool scopes=tasks:write
//wink:example desc="A weekly review" input={"title":"Weekly review","at":"2026-11-23T09:00:00Z","repeat":{"every":7}} output={"id":"T-1","title":"Weekly review","due":"2026-11-23T09:00:00Z","priority":2,"labels":{}}
//wink:idempotent strategy=params keys=title,at ttl=1h
func ScheduleTask(tc *wink.ToolContext, p ScheduleParams) (wink.ToolResult[Task], error) {
	if p.At.Year() < 2000 {
		return wink.Failure[Task]("at is too far in the past; schedule the task for a date after 2000"), nil
	}
	t := Task{ID: "T-1", Title: p.Title, Due: p.At, Priority: p.Priority, Labels: p.Labels}
	return wink.OK(t, "Scheduled."), nil
}
