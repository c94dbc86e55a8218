import { describe, expect, it } from 'vitest';
import { displayName, fullName, messagesPath, userPath } from './people.ts';

describe('displayName', () => {
  it.each([
    [{ name: 'Анна', surname: 'Петрова', user_name: 'anna' }, 'Анна Петрова'],
    [{ name: 'Анна', surname: '', user_name: 'anna' }, 'Анна'],
    [{ name: '', surname: 'Петрова', user_name: 'anna' }, 'Петрова'],
    [{ name: '', surname: '', user_name: 'anna' }, 'anna'],
    [{ name: '  ', surname: ' ', user_name: 'anna' }, 'anna'],
    [{ name: '', surname: '', user_name: '' }, ''],
  ])('%j → %j', (person, name) => {
    expect(displayName(person)).toBe(name);
  });
});

describe('fullName', () => {
  it.each([
    [{ name: 'Иван', surname: 'Сидоров', user_name: 'ivan' }, 'Иван Сидоров'],
    [{ name: '', surname: '', user_name: 'ivan' }, 'ivan'],
    [{ name: '', surname: '' }, 'Пользователь'],
    [{ name: '', surname: '', user_name: '' }, 'Пользователь'],
  ])('%j → %j', (person, name) => {
    expect(fullName(person)).toBe(name);
  });
});

describe('addresses', () => {
  it('leads to a person’s public profile', () => {
    expect(userPath('5f0c6a8e-1b2c-4d3e-8f90-123456789abc')).toBe('/user/5f0c6a8e-1b2c-4d3e-8f90-123456789abc');
  });

  it.each([
    ['u1', undefined, '/profile/messages?to=u1'],
    ['u1', 's1', '/profile/messages?to=u1&service=s1'],
    ['u1', '', '/profile/messages?to=u1'],
    ['a&b', 'c d', '/profile/messages?to=a%26b&service=c+d'],
  ])('the chat with %j about %j → %s', (to, service, path) => {
    expect(messagesPath(to, service)).toBe(path);
  });
});
