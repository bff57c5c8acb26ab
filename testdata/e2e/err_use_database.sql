USE mydb;
