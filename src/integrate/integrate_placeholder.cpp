// Placeholder until the shared integration engines land.
