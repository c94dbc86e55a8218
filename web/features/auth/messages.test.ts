import { describe, expect, it } from 'vitest';
import { loginErrorText, registerErrorText, registerFieldErrors } from './messages.ts';

describe('SPEC §8 account messages', () => {
  it('maps login errors', () => {
    expect(loginErrorText({ status: 400, message: 'x' })).toBe('Неверный логин или пароль');
    expect(loginErrorText({ status: 429, message: 'x' })).toBe('Непредвиденная ошибка');
    expect(loginErrorText({ status: 0, message: 'x' })).toBe('Непредвиденная ошибка');
  });
  it('maps register errors', () => {
    expect(registerErrorText({ status: 400, message: 'Email already exists' })).toBe('Пользователь с таким email уже существует');
    expect(registerErrorText({ status: 400, message: 'User name already exists' })).toBe('Пользователь с таким логином уже существует');
    expect(registerErrorText({ status: 400, message: 'Проверка не пройдена' })).toBe('Непредвиденная ошибка: Проверка не пройдена');
  });
  it('points a refused registration at the field to change, in words of its own', () => {
    expect(registerFieldErrors({ status: 400, message: 'Email already exists' })).toEqual({ email: ['Этот email уже зарегистрирован: войдите или восстановите пароль'] });
    expect(registerFieldErrors({ status: 400, message: 'User name already exists' })).toEqual({ user_name: ['Этот логин занят, выберите другой'] });
    expect(registerFieldErrors({ status: 400, message: 'x', errors: { password: ['Слабый'] } })).toEqual({ password: ['Слабый'] });
    expect(registerFieldErrors({ status: 500, message: 'x' })).toBeUndefined();
  });
});
