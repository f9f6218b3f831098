import type { Localized } from '@stdreg/contracts';

export const isChinese = (text: string) => /\p{Script=Han}/u.test(text);

/** A clause's text in the language of the sentence read against it. */
export const clauseTextFor = (clause: Localized, sentence: string) => (isChinese(sentence) ? clause['zh-Hans'] : clause.en);
