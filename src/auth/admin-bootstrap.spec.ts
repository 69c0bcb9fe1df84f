import { ConfigError, loadConfig } from '../config/app-config.js';
import { checkAdminConfig } from './admin-bootstrap.js';

function adminConfigErrorOf(username: string, password: string): ConfigError {
  let thrown: unknown;
  try {
    checkAdminConfig(loadConfig({ ADMIN_USERNAME: username, ADMIN_PASSWORD: password }).admin);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return thrown as ConfigError;
}

describe('checkAdminConfig', () => {
  it.each([
    ['ADMIN_USERNAME', 'a:b', 'correct horse battery'],
    ['ADMIN_USERNAME', 'two words', 'correct horse battery'],
    ['ADMIN_USERNAME', 'a'.repeat(65), 'correct horse battery'],
    ['ADMIN_PASSWORD', 'curator', 'elevenchars'],
    ['ADMIN_PASSWORD', 'curator', 'correct horse\u0000battery'],
  ])('rejects an invalid %s, naming it: %j / %j', (variable, username, password) => {
    const error = adminConfigErrorOf(username, password);
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('never puts the admin password in the message', () => {
    const error = adminConfigErrorOf('curator', 'short-pw');
    expect(error.message).toBe('Invalid configuration: ADMIN_PASSWORD must be 12 to 1024 characters');
    expect(error.message).not.toContain('short-pw');
  });

  it('accepts valid admin credentials and no admin at all', () => {
    expect(() => checkAdminConfig({ username: 'curator', password: '123456789012' })).not.toThrow();
    expect(() => checkAdminConfig(null)).not.toThrow();
  });
});
