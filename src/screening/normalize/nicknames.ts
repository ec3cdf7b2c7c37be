/**
 * Given names and their common short forms (Bob = Robert, Bibi = Benjamin): two spellings no edit
 * distance or phonetic code connects. Kept small and conservative — each group is a name and the
 * forms people really use for it in documents and at a front desk.
 */
import { FormGroups } from './form-groups.ts';

const GROUPS: string[][] = [
  ['robert', 'bob', 'rob', 'robbie', 'bobby', 'bert'],
  ['richard', 'dick', 'rick', 'ricky', 'rich', 'richie'],
  ['william', 'bill', 'will', 'willy', 'billy', 'liam'],
  ['timothy', 'tim', 'timmy'],
  ['edward', 'ted', 'ed', 'eddie', 'ned'],
  ['theodore', 'ted', 'teddy', 'theo'],
  ['benjamin', 'ben', 'benny', 'bibi'],
  ['barack', 'barry'],
  ['james', 'jim', 'jimmy', 'jamie'],
  ['john', 'jack', 'johnny', 'jon'],
  ['jonathan', 'jon', 'jonny'],
  ['joseph', 'joe', 'joey', 'jose', 'giuseppe'],
  ['michael', 'mike', 'mick', 'mikey', 'mikhail', 'michel'],
  ['thomas', 'tom', 'tommy'],
  ['charles', 'charlie', 'chuck', 'chas'],
  ['christopher', 'chris', 'kit'],
  ['daniel', 'dan', 'danny'],
  ['david', 'dave', 'davy'],
  ['anthony', 'tony', 'antonio', 'anton'],
  ['alexander', 'alex', 'sasha', 'aleksandr', 'alexandr', 'alessandro', 'sandy'],
  ['alexandra', 'alex', 'sasha', 'aleksandra'],
  ['nicholas', 'nick', 'nicky', 'nikolai', 'nikolay', 'nicolas'],
  ['matthew', 'matt'],
  ['andrew', 'andy', 'drew', 'andrei', 'andrey'],
  ['steven', 'steve', 'stephen', 'stefan'],
  ['peter', 'pete', 'pyotr', 'petr', 'pedro', 'pierre'],
  ['patrick', 'pat', 'paddy'],
  ['gregory', 'greg', 'grigory'],
  ['samuel', 'sam', 'sammy'],
  ['kenneth', 'ken', 'kenny'],
  ['lawrence', 'larry'],
  ['leonard', 'leo', 'len', 'lenny'],
  ['margaret', 'maggie', 'peggy', 'meg', 'margo'],
  ['elizabeth', 'liz', 'beth', 'betty', 'eliza', 'lisa', 'elisabeth'],
  ['katherine', 'kate', 'kathy', 'katie', 'catherine', 'ekaterina', 'katya'],
  ['jennifer', 'jen', 'jenny'],
  ['susan', 'sue', 'suzy'],
  ['patricia', 'pat', 'patty', 'trish'],
  ['rebecca', 'becky'],
  ['deborah', 'debbie', 'deb'],
  ['dmitry', 'dmitri', 'dima'],
  ['vladimir', 'volodymyr', 'vova', 'volodya'],
  ['yevgeny', 'evgeny', 'yevgeniy', 'evgeniy', 'zhenya', 'eugene'],
  ['sergey', 'sergei', 'serhiy', 'sergiy', 'seryozha'],
  ['ivan', 'vanya', 'john'],
  ['mohammed', 'muhammad', 'mohamed', 'mohammad', 'muhammed', 'mehmet', 'mohd', 'md'],
  ['osama', 'usama', 'usamah'],
  ['yusuf', 'yousef', 'youssef', 'joseph', 'yosef'],
  ['ibrahim', 'abraham', 'ebrahim'],
  ['suleiman', 'sulayman', 'solomon', 'suleyman'],
];

/** Given names and their short forms, as one name. */
export const GIVEN_NAMES = new FormGroups(GROUPS);
