// The page side of Element Send Keys on a file input
// (https://www.w3.org/TR/webdriver2/#element-send-keys): setting its files
// as a user's choice in the file chooser would (which files it takes: InteractionAtoms.focusForKeys).
enum FileAtoms {
    // Sets the input's files from [{name, type, data (base64), lastModified (ms), path}], added to
    // those it has when it takes several, then fires input and change. `path` is the file's
    // place in a chosen folder ("photos/2024/a.jpg"), its `webkitRelativePath`, or null.
    // A chosen folder's paths are set on the page's own File objects, which the page reads (this
    // runs in Headway's isolated world, whose objects are its own).
    static let setFiles = #"""
    async function(e, files) {
      const dt = new DataTransfer();
      if (e.multiple && !e.webkitdirectory) for (const f of e.files) dt.items.add(f);
      for (const f of files) {
        const bytes = Uint8Array.from(atob(f.data), c => c.charCodeAt(0));
        dt.items.add(new File([bytes], f.name, { type: f.type, lastModified: f.lastModified }));
      }
      e.files = dt.files;
      const paths = files.map((f) => f.path);
      if (paths.some((p) => p !== null)) {
        await this.headwayPage.call(`const [input, paths] = arguments, first = input.files.length - paths.length;
          paths.forEach((path, i) => { if (path !== null) Object.defineProperty(input.files[first + i],
            'webkitRelativePath', { value: path }); });`, [e, paths]);
      }
      e.dispatchEvent(new Event('input', { bubbles: true }));
      e.dispatchEvent(new Event('change', { bubbles: true }));
      return null;
    }
    """#
}
