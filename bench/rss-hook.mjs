// Loaded with --import: reports the process's peak resident memory on stderr when it exits.
process.on('exit', () => process.stderr.write(`\n__maxrss_kb=${process.resourceUsage().maxRSS}\n`));
