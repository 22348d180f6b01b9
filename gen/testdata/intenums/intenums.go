// Package intenums: an integer enum tells the model what each value means (its constants' names and
// docs), and examples reach the model as written.
package intenums

import (
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Priority is how soon a task must be done.
type Priority int

// Priorities.
const (
	// Low is for tasks that can wait.
	Low    Priority = 1
	Medium Priority = 2 // Medium: this week.
	// High means today.
	High Priority = 3
)

// Level has no docs on its constants.
type Level uint8

const (
	LevelOne Level = iota + 1
	LevelTwo
)

// TaskParams are the arguments of add_task.
type TaskParams struct {
	// Title of the task.
	Title string `json:"title"`
	// Priority of the task.
	Priority Priority `json:"priority" wink:"default=2"`
	// Urgent narrows the priorities to the two highest.
	Urgent Priority `json:"urgent,omitempty" wink:"enum=2|3"`
	// Levels of the task.
	Levels []Level `json:"levels,omitempty"`
	// Every is how often it repeats.
	Every time.Duration `json:"every,omitempty" wink:"default=24h"`
}

// TaskResult is what add_task returns.
type TaskResult struct {
	// Due is when the task is due.
	Due time.Duration `json:"due"`
	// Priority is the priority given.
	Priority Priority `json:"priority"`
}

// AddTask adds a task.
//
//wink:tool
//wink:example desc="Every two days" input={ "every": "48h", "title": "Water the plants" } output={"due": "48h", "priority": 2}
func AddTask(tc *wink.ToolContext, p TaskParams) (wink.ToolResult[TaskResult], error) {
	return wink.OK(TaskResult{Due: p.Every, Priority: p.Priority}, "Added."), nil
}
