package capture

// MaxLogged is how many console calls a step's output lists: the newest.
const MaxLogged = 50

// Logged is a console call of the agent's own code as the pageFunction
// and poll steps show it: its level (log, debug, info, warning, error)
// and its text as DevTools prints the arguments. Count is set when the
// same call was made several times in a row, as a poll's predicate does.
type Logged struct {
	Level string `json:"level"`
	Text  string `json:"text"`
	Count int    `json:"count,omitempty"`
}

// Logs lists the console calls among msgs in order, each run of
// identical ones once, cut to the newest MaxLogged; omitted counts the
// entries left out before them. Uncaught exceptions are not console calls:
// the call's console report has them.
func Logs(msgs []Message) (logs []Logged, omitted int) {
	for _, m := range msgs {
		if m.Type != typeCons {
			continue
		}
		text := truncate(m.Text, MaxTextLen)
		if n := len(logs); n > 0 && logs[n-1].Level == m.Level && logs[n-1].Text == text {
			logs[n-1].Count = max(logs[n-1].Count, 1) + 1
			continue
		}
		logs = append(logs, Logged{Level: m.Level, Text: text})
	}
	if len(logs) > MaxLogged {
		omitted = len(logs) - MaxLogged
		logs = logs[omitted:]
	}
	return logs, omitted
}
