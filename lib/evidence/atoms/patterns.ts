/**
 * Regular expressions of the extractor, over binary strings (one char per byte, so non-ASCII
 * UTF-8 shows up as \x80-\xff). Scanning is anchor-driven for speed: a cheap global regex finds
 * the few characters an atom can contain (a slash, a digit, a quote, "://", a file extension),
 * and one sticky "atom" regex is tried where the atom would start. Prose without anchors is
 * skipped at native regex speed instead of trying a dozen alternatives at every character.
 */

/** File extensions that make a bare word ("README.md", "conf.yaml") a path. */
export const FILE_EXTENSIONS =
  "md|markdown|txt|rst|ts|tsx|mts|cts|js|jsx|mjs|cjs|json|jsonl|ya?ml|toml|ini|cfg|conf|config|env|properties|" +
  "py|pyi|ipynb|rb|go|rs|java|kt|kts|scala|swift|c|h|cc|cpp|cxx|hpp|cs|fs|php|pl|pm|lua|r|sql|sh|bash|zsh|fish|ps1|bat|" +
  "html?|css|scss|sass|less|vue|svelte|xml|svg|csv|tsv|log|lock|gradle|mk|cmake|dockerfile|tf|tfvars|hcl|proto|graphql|" +
  "pem|crt|key|pub|service|timer|socket|plist|desktop|rules|repo|list|patch|diff|tar|gz|tgz|zip|whl|deb|rpm|db|sqlite3?|" +
  "bak|orig|tmp|pid|sock|out|err|so|dylib|a|o|bin|exe|dll|png|jpe?g|gif|pdf";

/** Dotfiles that are paths even without a slash (".bashrc" in "appended to .bashrc"). */
export const DOTFILES =
  "bashrc|bash_profile|bash_login|bash_logout|bash_aliases|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|" +
  "gitconfig|gitignore|gitattributes|gitmodules|gitkeep|env(?:\\.[\\w.-]+)?|npmrc|yarnrc(?:\\.yml)?|netrc|pgpass|" +
  "pypirc|vimrc|inputrc|tmux\\.conf|screenrc|editorconfig|prettierrc|eslintrc(?:\\.\\w+)?|nvmrc|node-version|" +
  "python-version|ruby-version|tool-versions|dockerignore|htaccess|htpasswd|ssh|aws|kube|docker|config|local|" +
  "cache|bashrc\\.d|mailrc|wgetrc|curlrc|xinitrc|Xresources";

const MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec";

/** Characters a path may contain (besides the slash). */
const PCH = "[\\w.\\-+@%~\\x80-\\xff]";

const NUMBER_UNITS_SPACED =
  "[KMGTP]i?B|[kKmMgG][bB]|bytes?|ns|us|\\xc2\\xb5s|\\xce\\xbcs|ms|secs?|seconds?|s|mins?|minutes?|hrs?|hours?|days?|" +
  "%|files?|lines?|tests?|errors?|warnings?|packages?|commits?|rows?|records?|items?|insertions?\\(\\+\\)|" +
  "deletions?\\(-\\)|insertions?|deletions?|director(?:y|ies)|dirs?|folders?|characters|chars|tokens?|requests?|" +
  "retries|attempts?|times|passed|failed|matches|match|occurrences?|results?|entries|entry|issues?|" +
  "vulnerabilit(?:y|ies)|hunks?|changes?|objects?|workers?|threads?|cores?|req\\/s|ops\\/s|[KMG]B\\/s|USD|EUR";
const NUMBER_UNITS_TIGHT = "[KMGTP]i?B|[kKmMgG][bB]|ns|us|ms|s|m|h|d|%";

const EXIT_LABEL =
  "(?:[Ee]xit(?:ed)?(?: with)?(?: code| status)?|EXIT(?: CODE| STATUS)?|[Rr]eturn(?:ed)? (?:code|status)|" +
  "[Ee]xit_?[Cc]ode|returncode|exit_status|[Ss]tatus code)[\"']?[:=]?\\s?";
const EPOCH_LABEL =
  "(?:timestamp|Timestamp|time|ts|epoch|created|updated|modified|mtime|ctime|atime|started|finished|ended|date)" +
  "(?:_at|At|_ms|Ms|_unix|_s)?[\"']?\\s?[:=]\\s?[\"']?";

/** The shapes an atom can have in text. */
export type AtomShape =
  | "URL"
  | "ISO"
  | "RFC"
  | "CTIME"
  | "CLF"
  | "EPOCH"
  | "UUID"
  | "ABS"
  | "REL"
  | "DOT"
  | "FILE"
  | "HEX"
  | "TICKET"
  | "HASHNUM"
  | "EXIT"
  | "NUM"
  | "CURRENCY"
  | "DQ"
  | "SQ"
  | "BQ"
  | "CQ"
  | "PROMPT";

/**
 * One sticky regex per shape. They are tried with `test` (no match array, no substrings: the
 * match end is `lastIndex`), in an order picked by the character where the atom would start.
 */
export const SHAPE: Record<AtomShape, RegExp> = {
  URL: String.raw`[A-Za-z][A-Za-z0-9+.-]{0,15}:\/\/[^\s"'<>\x60{}|\\^\x00-\x1f\x7f]+`,
  ISO: String.raw`\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:[.,]\d{1,9})?)?(?:\s?(?:Z|UTC|GMT|[+-]\d\d(?::?\d\d)?)(?![\w]))?)?(?![\w-])`,
  RFC: String.raw`\d{1,2}\s(?:${MONTHS})[a-z]*\s\d{4}\s\d\d:\d\d(?::\d\d)?(?:\s(?:[+-]\d{4}|[A-Z]{1,4}))?(?![\w])`,
  CTIME: String.raw`\d{1,2}\s\d\d:\d\d:\d\d(?:\s[A-Z]{3,4})?\s\d{4}(?:\s[+-]\d{4})?(?![\w])`,
  CLF: String.raw`\d\d\/(?:${MONTHS})\/\d{4}:\d\d:\d\d:\d\d\s[+-]\d{4}`,
  EPOCH: String.raw`(?<=${EPOCH_LABEL})\d{10}(?:\d{3})?(?![\w])`,
  UUID: String.raw`(?<![\w-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\w-])`,
  ABS: String.raw`(?<![\w.\/:~$\\-])(?:~[\w.-]*|\$\{?HOME\}?|\.\.?)?\/${PCH}+(?:\/${PCH}*)*`,
  REL: String.raw`(?<![\w.\/:~$\\-])${PCH}+\/${PCH}+(?:\/${PCH}*)*`,
  DOT: String.raw`(?<![\w.\/~-])\.(?:${DOTFILES})(?![\w.\/-])`,
  FILE: String.raw`(?<![\w.\/:~$\\-])[\w\-+@\x80-\xff][\w.\-+@\x80-\xff]*\.(?:${FILE_EXTENSIONS})(?![\w.\/-])`,
  HEX: String.raw`(?<![\w-])(?:(?=[a-f]*\d)(?=\d*[a-f])[0-9a-f]{7,128}|(?=[A-F]*\d)(?=\d*[A-F])[0-9A-F]{7,128})(?![\w-])`,
  TICKET: String.raw`(?<![\w-])(?:CVE-\d{4}-\d{4,7}|[A-Z][A-Z0-9]{1,9}-\d{1,7})(?![\w-])`,
  HASHNUM: String.raw`(?<![\w&#])#\d{1,7}(?![\w])`,
  EXIT: String.raw`(?<=${EXIT_LABEL})-?\d{1,3}(?![\w]|\.\d)`,
  NUM: String.raw`(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?(?:${NUMBER_UNITS_SPACED})(?![\w])|(?:${NUMBER_UNITS_TIGHT})(?![\w]))`,
  CURRENCY: String.raw`\$\d{1,9}(?:\.\d\d)?(?![\w.])`,
  DQ: String.raw`"[^"\n]{1,400}"`,
  SQ: String.raw`(?<![\w'])'[^'\n]{1,400}'(?![\w'])`,
  BQ: String.raw`(?<!\x60)\x60[^\x60\n]{1,400}\x60(?!\x60)`,
  CQ: String.raw`\xe2\x80\x9c(?:(?!\xe2\x80\x9d)[^\n]){1,400}\xe2\x80\x9d`,
  PROMPT: String.raw`(?<=^|\n)\$ [^\n]{1,4000}`,
} as unknown as Record<AtomShape, RegExp>;
for (const k of Object.keys(SHAPE) as AtomShape[]) SHAPE[k] = new RegExp(SHAPE[k] as unknown as string, "y");

/** Shapes found by regex inside shell commands: paths and quotes come from the shell words. */
const SHELL_SHAPES = new Set<AtomShape>([
  "URL",
  "ISO",
  "RFC",
  "CTIME",
  "CLF",
  "EPOCH",
  "UUID",
  "HEX",
  "TICKET",
  "HASHNUM",
  "EXIT",
  "NUM",
]);

/**
 * Which shapes to try, in priority order, by the character an atom would start with (a
 * timestamp beats the number inside it; a uuid beats the hex run inside it).
 */
const ORDERS: Record<string, AtomShape[]> = {
  digit: ["ISO", "UUID", "HEX", "NUM", "RFC", "CTIME", "CLF", "EPOCH", "EXIT", "REL", "FILE"],
  word: ["URL", "UUID", "HEX", "TICKET", "REL", "FILE"],
  slash: ["ABS", "REL"],
  dot: ["ABS", "DOT", "REL", "FILE"],
  tilde: ["ABS"],
  dollar: ["ABS", "CURRENCY", "PROMPT"],
  dash: ["EXIT", "REL", "FILE"],
  hash: ["HASHNUM"],
  dq: ["DQ"],
  sq: ["SQ"],
  bq: ["BQ"],
  cq: ["CQ"],
  other: ["REL", "FILE"],
};

function orderTable(shell: boolean): AtomShape[][] {
  const pick = (name: string) => ORDERS[name]!.filter((x) => !shell || SHELL_SHAPES.has(x));
  const table: AtomShape[][] = [];
  for (let c = 0; c < 256; c++) {
    const ch = String.fromCharCode(c);
    let name = "other";
    if (c >= 0x30 && c <= 0x39) name = "digit";
    else if (/[A-Za-z_]/.test(ch) || c >= 0x80) name = c === 0xe2 ? "cq" : "word";
    else if (ch === "/") name = "slash";
    else if (ch === ".") name = "dot";
    else if (ch === "~") name = "tilde";
    else if (ch === "$") name = "dollar";
    else if (ch === "-") name = "dash";
    else if (ch === "#") name = "hash";
    else if (ch === '"') name = "dq";
    else if (ch === "'") name = "sq";
    else if (ch === "`") name = "bq";
    table.push(pick(name));
  }
  // A curly quote starts with 0xe2, which also starts other non-ASCII words.
  table[0xe2] = shell ? pick("word") : ["CQ", ...pick("word")];
  return table;
}

/** Shapes to try by first byte: prose and data. */
export const SHAPE_ORDER = orderTable(false);
/** Shapes to try by first byte: inside shell commands. */
export const SHELL_SHAPE_ORDER = orderTable(true);

/**
 * Anchors: characters that occur in (or right before) every atom shape. Every alternative
 * matches exactly one character (the rest is lookaround), so the scanner can use `test` and
 * `lastIndex - 1` instead of allocating a match array per anchor.
 */
export const ANCHOR_RE = new RegExp(
  String.raw`(?<!\d)\d|[\/~"'\x60$#]|\xe2(?=\x80\x9c)|:(?=\/\/)|\.(?=(?:${FILE_EXTENSIONS})(?![\w]))|(?<![\w.\/~-])\.(?=(?:${DOTFILES})(?![\w.\/-]))`,
  "g",
);
export const SHELL_ANCHOR_RE = /(?<!\d)\d|#|:(?=\/\/)/g;

/** A participle that a passive negation denies ("was not modified"). */
const DENIED = String.raw`(?:modified|changed|touched|written|edited|updated|created|deleted|removed|installed|altered|committed|pushed|overwritten|executed|run|applied)\b`;
/** n't, with a straight or a curly apostrophe (UTF-8 bytes in the binary string). */
const NT = String.raw`(?:n't|n\xe2\x80\x99t)`;

/**
 * Negation cues. Group 1: passive or adjectival cues ("was not modified", "unchanged") whose
 * subject comes before them; group 2: the rest, which negate what follows. Alternatives are
 * grouped by first letter (a trie), which the regex engine rejects faster at each word.
 */
export const NEGATION_RE = new RegExp(
  String.raw`\b(?:(` +
    [
      String.raw`[Ww](?:as|ere)(?:${NT}| not| never)\s+(?:been\s+)?${DENIED}`,
      String.raw`[Ii]s(?:${NT}| not| never)\s+(?:been\s+)?${DENIED}|[Ii]s already the newest version\b`,
      String.raw`[Aa]re(?:${NT}| not| never)\s+(?:been\s+)?${DENIED}|[Aa]lready (?:up[ -]to[ -]date|installed|exists|the newest version|present)\b`,
      String.raw`[Hh]a(?:s|ve)(?: been(?: not| never)|(?:${NT}| not| never) been)\s+${DENIED}`,
      String.raw`[Bb]een (?:not|never)\s+${DENIED}`,
      String.raw`[Nn](?:ot|ever)\s+(?:been\s+)?${DENIED}`,
      String.raw`[Uu]n(?:changed|touched|modified|altered)\b|[Uu]p to date\b`,
      String.raw`[Ll]eft (?:alone|as is|intact)\b`,
    ].join("|") +
    String.raw`)|(` +
    [
      String.raw`[Dd](?:id|oes|o)(?:${NT}| not\b)|[Dd]eclin(?:ed|es|ing)\b`,
      String.raw`[Hh]a(?:s|ve|d)(?:${NT}| not\b)`,
      String.raw`[Ww](?:as|ere|ould)(?:${NT}| not\b)|[Ww]on(?:'t|\xe2\x80\x99t)|[Ww]ill not\b|[Ww]ithout\b`,
      String.raw`[Ii]s(?:${NT}| not\b)`,
      String.raw`[Aa]re(?:${NT}| not\b)|[Aa]void(?:ed|ing)\b|[Aa]borted\b`,
      String.raw`[Cc]ould(?:${NT}| not\b)|[Cc]an(?:'t|\xe2\x80\x99t| ?not\b)`,
      String.raw`[Ss]hould(?:${NT}| not\b)|[Ss]han(?:'t|\xe2\x80\x99t)|[Ss]kip(?:ped|ping|s)?\b`,
      String.raw`[Mm](?:ust|ight)(?:${NT}| not\b)`,
      String.raw`[Nn](?:eed(?:${NT}| not\b)|ever\b|ot\b|o (?:changes?|files?|modifications?|edits?|writes?|updates?|packages?|action|such file(?: or directory)?)\b|o(?= [a-z])|othing (?:to commit|added to commit|to do|changed)\b|othing\b|either\b|or\b)`,
      String.raw`none\b|None of\b`,
      String.raw`[Rr]efus(?:ed|es|ing)\b`,
      String.raw`NOT\b(?! NULL| EXISTS)|NEVER\b|NO(?= [A-Za-z])|DID(?:N'T| NOT)\b`,
      String.raw`0 (?:newly installed|upgraded|files? (?:changed|modified|written|created|deleted|updated)|insertions?|deletions?|changes|packages? (?:installed|added|changed|removed)|rows? affected|added)\b`,
    ].join("|") +
    String.raw`))`,
  "g",
);

/** What ends a negation's scope: sentence ends, line ends, and contrast ("but", "however"...). */
export const CLAUSE_BOUNDARY_RE =
  /[.!?](?=\s|$)|[;\n]|\b(?:but|But|however|However|instead|Instead|although|though|yet|except|whereas|then|Then|afterwards)\b/g;
