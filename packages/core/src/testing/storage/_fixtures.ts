/** Ids of the right shape that no storage holds: what a suite asks for to get NOT_FOUND or a refusal. */
export const MISSING_COMPONENT = 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'
export const MISSING_MANUFACTURER = 'mfr_01JD7W3T9X4QF5B8S2M6K0N1PZ'
