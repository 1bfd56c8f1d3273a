// submit (SPEC 11.12): submit a form the way its submit button would, so
// its submit handlers run, unless constraint validation fails.
//
// a = {target}: the form, a submit button, or any field of the form.
// Returns {submitted, valid, errors?} or {error}. An invalid form is not
// submitted: reportValidity shows the browser's messages, as a user
// would see them, and errors lists them.
function submit(h, a) {
  const found = h.find(a.target);
  if (found.error) return found;
  const el = found.el;
  const form = el.localName === 'form' ? el : el.form || el.closest('form');
  if (!form) return h.fail('notForm', el.localName + ' is not a form and is in none');

  const isSubmitter = (el.localName === 'button' && el.type === 'submit') ||
    (el.localName === 'input' && (el.type === 'submit' || el.type === 'image'));
  const submitter = isSubmitter && el.form === form ? el : null;

  const skip = form.noValidate || (submitter && submitter.formNoValidate);
  if (!skip) {
    const errors = h.invalidFields(h.fieldsOf(form));
    if (errors.length) {
      form.reportValidity();
      return { submitted: false, valid: false, errors };
    }
  }
  // requestSubmit fires the submit event (and so the page's handlers); a
  // navigation it starts is queued, so this call returns first.
  form.requestSubmit(submitter);
  return { submitted: true, valid: true };
}
