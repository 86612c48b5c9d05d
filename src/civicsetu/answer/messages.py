"""Fixed sentences the product says. Tests assert on these constants."""

ABSTENTION = (
    "The corpus does not answer this question: no ingested provision addresses it "
    "closely enough to quote."
)

DISCLAIMER = (
    "This is the text of the law with pinpoint citations, not legal advice; check the "
    "cited provisions and their amendments before relying on them."
)

STATE_INSTRUMENT_NOTICE = (
    "The question is about {place}, but the corpus holds no {place} rules or "
    "notifications; states fix fees, forms, timelines and procedure in their own rules, so "
    "ingest them to answer this."
)

NEAREST_CENTRAL_NOTICE = "The nearest central provision in the corpus is {label} of the {title}."

# An amendment footnote as the law prints it: it says what it changed (some words, a proviso,
# another clause), which a summary such as "s.39 was omitted" would misstate.
AMENDMENT_NOTICE = "Amendment footnote to {label}: “{note}”"
AMENDED_SINCE_NOTICE = (
    "Footnotes to {label} record changes made after {date}: the quoted text is the current "
    "one, which may not be what was in force on {date}."
)

# A quote of a provision's opening words and its first clauses, the rest too long to show.
LIST_CONTINUES_NOTICE = (
    "{label} goes on after the quoted clauses; read the provision whole before relying on "
    "the quote."
)

# A provision the question names that the index does not hold (search/unfound.py).
UNFOUND_PROVISION_NOTICE = "The {title} as ingested has no {label}."
UNFOUND_NEAREST_NOTICE = "The {title} as ingested has no {label}; {nearest} is shown instead."
UNFOUND_ANYWHERE_NOTICE = "No ingested document has a {label}."
# A document the question names that was not yet law on the date asked (search/in_force.py).
NOT_YET_LAW_NOTICE = "The {title} was not yet law on {date}: it came into force on {start}."
NOT_YET_ENACTED_NOTICE = "The {title} was not yet law on {date}: it dates from {year}."
NOT_YET_IN_FORCE_NOTICE = "{label} of the {title} was not in force on {date}."
NOT_IN_FORCE_ANYWHERE_NOTICE = "No ingested document had a {label} in force on {date}."

UNKNOWN_TERM_NOTICE = "The corpus never mentions {terms}."

UNHELD_LAW_NOTICE = (
    "The question asks about {laws}, which is not in the corpus; provisions of other "
    "laws are not quoted in its place."
)

OTHER_YEAR_NOTICE = "The {asked} is not in the corpus; it holds the {held}."

MISSING_QUANTITY_NOTICE = (
    "The question asks for a number of {unit}, but none of the provisions found for it "
    "states one (the Acts may leave it to rules, regulations or the agreement). The nearest "
    "provision is {label} ({title})."
)

NO_SUCH_SUGGESTION = (
    "There is no suggestion {number}: type {valid} to ask one of the suggestions below, "
    "or type a question."
)

NO_SUGGESTIONS_TO_PICK = (
    "There are no numbered suggestions to pick {when}: type a question, and each answer "
    "offers numbered follow-up questions."
)

OUT_OF_SCOPE_DRAFTING = (
    "CivicSetu finds and quotes the law; it does not draft notices, petitions, agreements "
    "or other documents. Ask what the law says about the matter instead."
)

OUT_OF_SCOPE_ADVICE = (
    "CivicSetu cannot advise on your particular case or predict its outcome. It can show "
    "what the law says: ask about the rule, right, duty, penalty or deadline that applies."
)

OUT_OF_SCOPE_TOPIC = (
    "This question is not about the law in the corpus. CivicSetu answers questions about "
    "the statutes, rules and contracts it has ingested."
)

INJECTION_REFUSAL = (
    "The question contains instructions addressed to the system rather than a question "
    "about the law, so it was not run. Ask the legal question on its own."
)

LOOKALIKE_NOTICE = (
    "Warning: {doc} ({source}) has the same title as {other}; it is not the official text. "
    "Check which document each quote comes from before relying on it."
)

UNSUPPORTED_LANGUAGE = (
    "CivicSetu answers questions in English only: the corpus and its search model do not "
    "serve this language. Ask the question in English."
)

LLM_UNREACHABLE_NOTICE = (
    "The LLM could not be reached ({error}); the verified quotes are shown instead. Check "
    "that the server is running and the --llm spec, or answer without --llm."
)

LLM_ERROR_NOTICE = (
    "The LLM returned an error ({error}); the verified quotes are shown instead. Check the "
    "--llm spec (model name, API key), or answer without --llm."
)

CONFLICT_NOTICE = (
    "The quoted provisions come from {first} and {second}. Where they provide differently "
    "for the same matter, which applies depends on each law's scope, dates and any "
    "overriding clause; compare the quoted text before relying on either."
)
