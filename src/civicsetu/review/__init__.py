"""Contract review: a checklist of items, evidence ranked inside each contract, a label
(entailed / contradicted / not mentioned), a risk level and cross-contract conflicts."""
