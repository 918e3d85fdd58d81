// Ponte Connect: the simulated institutions' own words in English, for ?lang=en. The API
// answers Pluggy's single label (an institution speaks its own language); the page puts
// these in place of the sandbox's Portuguese labels, hints, validation messages, options
// and prompts. A string not listed here is shown as the institution sent it.
// The object is plain JSON: a Go test (TestConnectInstitutionsEnglish) reads it and holds it
// to every word the sandbox sends.
"use strict";
window.PONTE_INSTITUTIONS_EN = {
  "CPF": "CPF",
  "Somente números": "Numbers only",
  "O CPF deve ter 11 dígitos": "The CPF has 11 digits",
  "CNPJ": "CNPJ",
  "O CNPJ deve ter 14 dígitos": "The CNPJ has 14 digits",
  "Usuário": "User",
  "Use user-ok para uma conexão de sucesso": "Use user-ok for a successful connection",
  "O usuário deve ter de 3 a 64 letras, números ou . _ @ -": "The user must have 3 to 64 letters, digits or . _ @ -",
  "Senha": "Password",
  "A senha deve ter de 6 a 64 caracteres": "The password must have 6 to 64 characters",
  "Token": "Token",
  "Código de 6 dígitos do aplicativo do banco": "6-digit code from the bank's app",
  "O token deve ter 6 dígitos": "The token has 6 digits",
  "Senha eletrônica": "Electronic password",
  "8 dígitos": "8 digits",
  "A senha eletrônica deve ter 8 dígitos": "The electronic password has 8 digits",
  "Perfil de acesso": "Access profile",
  "O perfil com que você entra no internet banking": "The profile you sign in to internet banking with",
  "Master": "Master",
  "Operador": "Operator",
  "Consulta": "View only",
  "A senha deve ter de 8 a 32 caracteres": "The password must have 8 to 32 characters",
  "Token de segurança": "Security token",
  "Enviado por SMS ao celular cadastrado": "Sent by text message to your registered phone",
  "Senha do app": "App password",
  "A senha do app tem 6 dígitos": "The app password has 6 digits",
  "Agência": "Branch",
  "A agência tem 4 dígitos": "The branch has 4 digits",
  "Conta": "Account",
  "A conta tem de 5 a 12 dígitos": "The account has 5 to 12 digits",
  "Celular": "Mobile phone",
  "Com DDD": "With area code",
  "O celular tem DDD e 8 ou 9 dígitos": "The mobile phone has an area code and 8 or 9 digits",
  "Digite o código da imagem": "Type the code in the image",
  "O código tem 6 dígitos": "The code has 6 digits",
  "Onde receber o código?": "Where should the code go?",
  "SMS para (11) ****-1234": "Text message to (11) ****-1234",
  "E-mail j***@example.com": "Email j***@example.com",
  "Código enviado por SMS": "Code sent by text message",
  "Enviado para (11) *****-1234": "Sent to (11) *****-1234",
  "Abra o aplicativo do banco e autorize o novo acesso.": "Open the bank's app and authorize the new access.",
  "Escaneie o QR code com o aplicativo do banco para entrar.": "Scan the QR code with the bank's app to sign in.",
  "Autorize o compartilhamento de dados na página da instituição.": "Authorize sharing your data on the institution's page.",
  "Por favor, atualize seus dados cadastrais no aplicativo do banco.": "Please update your personal details in the bank's app."
};
