// generate replaces the body with a page of about n elements in the shape
// of a real one: landmarks, headings, lists of links, cards of div soup
// with buttons, and form fields. It returns the element count.
function generate(n) {
  const parts = ['<header><nav aria-label="Main"><ul>'];
  for (let i = 0; i < 8; i++) parts.push('<li><a href="/nav/' + i + '">Nav ' + i + '</a></li>');
  parts.push('</ul></nav></header><main><h1>Generated</h1>');
  let count = 22;
  for (let i = 0; count < n - 30; i++) {
    parts.push(
      '<section aria-label="Block ' + i + '"><h2>Block ' + i + '</h2>' +
      '<div class="card"><div><span>Item ' + i + '</span> <span>$' + i + '.99</span></div>' +
      '<p>Some text for item ' + i + ' with <a href="/item/' + i + '">a link</a>.</p>' +
      '<ul><li>One</li><li>Two</li><li><button>Buy ' + i + '</button></li></ul>' +
      '<label>Qty <input name="q' + i + '" value="1"></label>' +
      '<div style="cursor:pointer"><span>Save ' + i + '</span></div></div></section>');
    count += 17;
  }
  parts.push('</main><footer><p>Footer</p></footer>');
  document.body.innerHTML = parts.join('');
  return document.body.querySelectorAll('*').length;
}
