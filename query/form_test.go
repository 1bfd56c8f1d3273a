package query_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/query"
)

func TestFormState(t *testing.T) {
	p, _ := openFixture(t, "form.html")
	st, err := query.ReadForm(testCtx(t), p, "#signup")
	if err != nil {
		t.Fatal(err)
	}
	if st.Valid || st.FieldCount != 16 || len(st.Fields) != 16 {
		t.Fatalf("got %s", jsonOf(t, st))
	}
	byName := map[string]string{}
	for _, f := range st.Fields {
		f.Message = strings.Repeat("m", min(len(f.Message), 1)) // the text is the browser's
		byName[f.Name] = jsonOf(t, f)
	}
	want := map[string]string{
		"email":    `{"name":"email","type":"email","label":"Email","value":"","required":true,"valid":false,"message":"m"}`,
		"password": `{"name":"password","type":"password","label":"Password","value":"********","valid":true}`,
		"age":      `{"name":"age","type":"number","label":"Age","value":"30","valid":true}`,
		"site":     `{"name":"site","type":"url","label":"Website","value":"","valid":true}`,
		"phone":    `{"name":"phone","type":"tel","value":"12","valid":false,"message":"m"}`,
		"when":     `{"name":"when","type":"date","value":"2024-05-01","valid":true}`,
		"color":    `{"name":"color","type":"color","value":"#ff0000","valid":true}`,
		"volume":   `{"name":"volume","type":"range","value":"40","valid":true}`,
		"q":        `{"name":"q","type":"search","value":"cats","valid":true}`,
		"locked":   `{"name":"locked","type":"text","value":"ro","valid":true,"disabled":true}`,
		"terms":    `{"name":"terms","type":"checkbox","label":"I agree","value":false,"required":true,"valid":false,"message":"m"}`,
		"plan":     `{"name":"plan","type":"radio","label":"Plan","value":"free","valid":true}`,
		"country":  `{"name":"country","type":"select-one","label":"Country","value":"se","valid":true}`,
		"tags":     `{"name":"tags","type":"select-multiple","label":"Tags","value":["a","b"],"valid":true}`,
		"bio":      `{"name":"bio","type":"textarea","label":"Bio","value":"Hello","valid":true}`,
		"upload":   `{"name":"upload","type":"file","label":"Upload","value":[],"valid":true}`,
		"who":      "", // another form's field
	}
	for name, w := range want {
		if byName[name] != w {
			t.Errorf("%s:\n got %s\nwant %s", name, byName[name], w)
		}
	}
	if _, ok := byName["token"]; ok {
		t.Error("a hidden input is listed as a field")
	}
}

// A password never leaves the page, and an empty one stays visibly empty.
func TestFormStateMasksPasswords(t *testing.T) {
	p, _ := openFixture(t, "form.html")
	st, err := query.ReadForm(testCtx(t), p, "form")
	if err != nil {
		t.Fatal(err)
	}
	if s := jsonOf(t, st); strings.Contains(s, "s3cret") {
		t.Fatalf("password leaked: %s", s)
	}
	eval[any](t, p, `document.querySelector('[name=password]').value = ''`)
	st, _ = query.ReadForm(testCtx(t), p, "#signup")
	for _, f := range st.Fields {
		if f.Name == "password" && string(f.Value) != `""` {
			t.Errorf("empty password reads %s", f.Value)
		}
	}
}

func TestValidate(t *testing.T) {
	p, _ := openFixture(t, "form.html")
	ctx := testCtx(t)
	email, err := query.Validate(ctx, p, "#email")
	if err != nil || email.Valid || email.Message == "" || jsonOf(t, email.Validity) != `{"valueMissing":true}` {
		t.Errorf("email: %s %v", jsonOf(t, email), err)
	}
	phone, err := query.Validate(ctx, p, "[name=phone]")
	if err != nil || phone.Valid || !phone.Validity["patternMismatch"] {
		t.Errorf("phone: %s %v", jsonOf(t, phone), err)
	}
	age, err := query.Validate(ctx, p, "[name=age]")
	if err != nil || jsonOf(t, age) != `{"valid":true}` {
		t.Errorf("age: %s %v", jsonOf(t, age), err)
	}
	form, err := query.Validate(ctx, p, "#signup")
	if err != nil || form.Valid || len(form.Errors) != 3 || form.Errors[0].Field != "email" || form.Errors[0].Label != "Email" {
		t.Errorf("form: %s %v", jsonOf(t, form), err)
	}
	if _, err := query.Validate(ctx, p, "#out"); errName(err) != "StepValidationError" {
		t.Errorf("not a field: %v", err)
	}
}

// validate and formState read; they must not fire the invalid events a
// page may answer by showing errors.
func TestReadingFiresNoInvalidEvents(t *testing.T) {
	p, _ := openFixture(t, "form.html")
	eval[any](t, p, `window.invalids = 0; document.addEventListener('invalid', () => window.invalids++, true)`)
	if _, err := query.Validate(testCtx(t), p, "#signup"); err != nil {
		t.Fatal(err)
	}
	if _, err := query.ReadForm(testCtx(t), p, "#signup"); err != nil {
		t.Fatal(err)
	}
	if n := eval[int](t, p, "window.invalids"); n != 0 {
		t.Errorf("%d invalid events fired", n)
	}
}

func TestSubmitInvalidFormReportsErrors(t *testing.T) {
	p, base := openFixture(t, "form.html")
	sub, err := query.Submit(testCtx(t), p, "#send")
	var fe *query.FormInvalidError
	if !errors.As(err, &fe) || errName(err) != "FormValidationError" || len(fe.Errors) != 3 {
		t.Fatalf("got %v", err)
	}
	if sub == nil || sub.Submitted || sub.Valid || len(sub.Errors) != 3 || !strings.Contains(err.Error(), "email: ") {
		t.Errorf("got %s / %v", jsonOf(t, sub), err)
	}
	if url := eval[string](t, p, "location.href"); url != base+"/form.html" {
		t.Errorf("the invalid form navigated to %s", url)
	}
}

func TestSubmitValidFormNavigates(t *testing.T) {
	p, base := openFixture(t, "form.html")
	eval[any](t, p, `(() => {
		document.getElementById('email').value = 'a@b.co';
		document.querySelector('[name=phone]').value = '123';
		document.querySelector('[name=terms]').checked = true;
	})()`)
	sub, err := query.Submit(testCtx(t), p, "#signup")
	if err != nil || jsonOf(t, sub) != `{"submitted":true,"valid":true}` {
		t.Fatalf("got %s %v", jsonOf(t, sub), err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		obj, err := p.Evaluate(testCtx(t), proto.RuntimeEvaluate{Expression: "location.href", ReturnByValue: true})
		if err == nil && strings.HasPrefix(strings.Trim(string(obj.Value), `"`), base+"/done.html?email=a%40b.co") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the form did not navigate to done.html")
}

// The submit event reaches the page's handlers, with the button that
// submitted it.
func TestSubmitRunsHandlersWithSubmitter(t *testing.T) {
	p, _ := openFixture(t, "form.html")
	for target, want := range map[string]string{"#easy": "submitted by none", "#easy-send": "submitted by easy-send"} {
		if _, err := query.Submit(testCtx(t), p, target); err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if got := eval[string](t, p, "document.getElementById('out').textContent"); got != want {
			t.Errorf("%s: got %q, want %q", target, got, want)
		}
	}
	if _, err := query.Submit(testCtx(t), p, "#out"); errName(err) != "StepValidationError" {
		t.Errorf("not in a form: %v", err)
	}
}
