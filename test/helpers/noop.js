// Does nothing: the smallest script a Node can load from this package (test/cli/open-files.test.js
// and address-space.test.js find the lowest limits at which this Node itself starts a script).
