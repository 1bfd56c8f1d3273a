package capture

// Append adds reqs to the log, keeping the newest MaxLogRequests: the
// tests' way to fill a log without a browser (a call's Save does it).
func (l NetworkLog) Append(reqs []Request) error {
	if len(reqs) == 0 {
		return nil
	}
	old, err := l.Read()
	if err != nil {
		return err
	}
	return l.write(append(old, reqs...))
}
