"""One row of the hostile-input tables, and the recipes that make large
inputs from a few words (so that a table row stays one line)."""


class Case:
    """A run of the odesens tool (or of hostile_capi).

    args: the arguments after the program name. Placeholders: {input} the
      path of the file written from `input`, {tmp} a fresh directory for
      this case, {shared} the shared data directory, {repo} the repository.
    input: the content of {input} (str, written as UTF-8, or bytes, or a
      function returning either, called only when the case runs), if any;
      input_name its file name in {tmp}.
    status: the expected exit status; stderr: a fragment (or a list of
      fragments) the standard error must contain; stdout: a fragment the
      standard output must contain, if given.
    pending: why the expectation is not met yet (behaviour being changed
      elsewhere), or None.
    file_limit: the largest file the program may write, in bytes
      (RLIMIT_FSIZE: a disk that fills up), or None.
    """

    def __init__(self, name, args, status, stderr, input=None, input_name="model.txt",
                 stdout=None, pending=None, file_limit=None):
        self.name = name
        self.args = list(args)
        self.status = status
        self.stderr = stderr
        self.input = input
        self.input_name = input_name
        self.stdout = stdout
        self.pending = pending
        self.file_limit = file_limit

    def renamed(self, name):
        copy = Case(name, self.args, self.status, self.stderr, self.input, self.input_name,
                    self.stdout, self.pending, self.file_limit)
        return copy

    def stderr_fragments(self):
        return [self.stderr] if isinstance(self.stderr, str) else list(self.stderr)

    def input_bytes(self):
        content = self.input() if callable(self.input) else self.input
        return content.encode("utf-8") if isinstance(content, str) else bytes(content)


def repeat(text, n, sep=""):
    """`text` n times, joined by `sep`."""
    return (text + sep) * (n - 1) + text if n > 0 else text[:0]


def nest(open_, close, n, core):
    """open_ n times, core, close n times: n levels of nesting."""
    return open_ * n + core + close * n
