// Describes the file input it is called on: what it holds and what it
// takes. Called with the input as this.
function uploadInfo() {
  return {
    files: Array.from(this.files || [], (f) => f.name),
    accept: this.accept || '',
    multiple: this.multiple,
  };
}
