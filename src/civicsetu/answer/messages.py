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

UNKNOWN_TERM_NOTICE = "The corpus never mentions {terms}."
