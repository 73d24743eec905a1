/**
 * How a product search reads its term, the same on the server and on the till. A term of 1 or 2
 * letters or digits is one a cashier has only begun to type: "om" looks for Omo, not Tomato, so it
 * finds products with a word (of the name, SKU or generic name) starting with it; any longer term,
 * or one with other characters, is found anywhere in those fields.
 */
export const isWordStartTerm = (term: string): boolean => /^[\p{L}\p{N}]{1,2}$/u.test(term);
